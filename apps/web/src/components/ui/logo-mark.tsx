import { HeartPulseIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

type LogoMarkProps = {
  /** The clinic's logo; without one, the product's heart-pulse mark in the primary colour. */
  src: string | null;
  /** Describes the logo image; the icon fallback is decorative, since a name always sits beside it. */
  alt: string;
  /** The fallback icon's colours: the page's primary, or the sidebar's. */
  tone?: 'primary' | 'sidebar';
  className?: string;
};

/** A square brand mark: a clinic's logo, or the product's icon when it has none. */
export function LogoMark({ src, alt, tone = 'primary', className }: LogoMarkProps) {
  if (src) {
    return <img src={src} alt={alt} className={cn('size-8 shrink-0 rounded-md bg-background object-contain', className)} />;
  }
  return (
    <span
      data-slot="logo-mark"
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-md',
        tone === 'primary' ? 'bg-primary text-primary-foreground' : 'bg-sidebar-primary text-sidebar-primary-foreground',
        className,
      )}
    >
      <HeartPulseIcon aria-hidden="true" className="size-1/2" />
    </span>
  );
}
