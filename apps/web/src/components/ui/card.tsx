import { Slot } from 'radix-ui';
import type { LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="card"
      className={cn('flex flex-col gap-6 rounded-xl border bg-card py-6 text-card-foreground shadow-sm', className)}
      {...props}
    />
  );
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-header" className={cn('flex flex-col gap-1.5 px-6', className)} {...props} />;
}

/** The card's title; pass `asChild` with a heading element when it belongs in the page outline. */
export function CardTitle({ className, asChild = false, ...props }: ComponentProps<'div'> & { asChild?: boolean }) {
  const Component = asChild ? Slot.Root : 'div';
  return <Component data-slot="card-title" className={cn('leading-none font-semibold', className)} {...props} />;
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p data-slot="card-description" className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-content" className={cn('px-6', className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-footer" className={cn('flex items-center px-6', className)} {...props} />;
}

/** A card header whose title is a heading of the page outline, led by an icon, with its description under it. */
export function CardIconHeader({
  icon: Icon,
  title,
  description,
  level = 2,
  titleClassName,
}: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  level?: 1 | 2;
  titleClassName?: string;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <CardHeader>
      <CardTitle asChild>
        <Heading className={cn('flex items-center gap-2', titleClassName)}>
          <Icon aria-hidden="true" className="size-5 text-primary" />
          {title}
        </Heading>
      </CardTitle>
      <CardDescription>{description}</CardDescription>
    </CardHeader>
  );
}
