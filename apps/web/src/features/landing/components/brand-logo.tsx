import { messages } from '@carteirinha/shared/messages';
import { HeartPulse } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';

type BrandLogoProps = { className?: string };

/** The product mark: a heart-pulse icon and the name, linking back to the top of the landing page. */
export function BrandLogo({ className }: BrandLogoProps) {
  return (
    <Link
      to="/"
      className={cn(
        'inline-flex shrink-0 items-center gap-1.5 rounded-md sm:gap-2 text-base font-bold sm:text-lg tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
    >
      <span className="flex size-7 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm sm:size-8">
        <HeartPulse className="size-4 sm:size-5" aria-hidden="true" />
      </span>
      {messages.landing.brandName}
    </Link>
  );
}
