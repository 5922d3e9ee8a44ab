import { messages } from '@carteirinha/shared/messages';
import type { LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { errorMessage } from '@/lib/error-message';
import { cn } from '@/lib/utils';
import { Card } from './card';

type StatCardProps = {
  title: string;
  /** The figure; `undefined` while it loads. */
  value: ReactNode | undefined;
  /** A line under the figure, such as "75% do total". */
  hint?: ReactNode;
  icon?: LucideIcon;
  className?: string;
};

/**
 * One figure with its title, as the summary rows of the admin pages show them. It is a named group, so the title is
 * read with the figure and a test can find the card by its title.
 */
export function StatCard({ title, value, hint, icon: Icon, className }: StatCardProps) {
  const titleId = useId();
  const loading = value === undefined;
  return (
    <Card role="group" aria-labelledby={titleId} aria-busy={loading} data-slot="stat-card" className={cn('gap-2 py-5', className)}>
      <div className="flex items-center justify-between gap-2 px-5">
        <p id={titleId} className="text-sm font-medium text-muted-foreground">
          {title}
        </p>
        {Icon ? <Icon aria-hidden="true" className="size-4 text-muted-foreground" /> : null}
      </div>
      <div className="px-5">
        <p data-slot="stat-card-value" className="text-2xl font-bold tabular-nums">
          {loading ? (
            <>
              <span aria-hidden="true">—</span>
              <span className="sr-only">{messages.common.loading}</span>
            </>
          ) : (
            value
          )}
        </p>
        {hint && !loading ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      </div>
    </Card>
  );
}

type StatCardGridProps = {
  /** Why the figures could not be loaded; shown in place of the cards. */
  error?: Error | null;
  /** The columns at each width, e.g. 'sm:grid-cols-2 lg:grid-cols-4'. */
  className: string;
  children: ReactNode;
};

/** The row of `StatCard`s at the top of an admin page; the reason instead when their figures failed to load. */
export function StatCardGrid({ error, className, children }: StatCardGridProps) {
  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error)}
      </p>
    );
  }
  return <div className={cn('grid gap-4', className)}>{children}</div>;
}
