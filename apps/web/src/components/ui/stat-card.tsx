import { messages } from '@carteirinha/shared/messages';
import type { LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Card } from './card';
import { ErrorState } from './error-state';

type StatCardProps = {
  title: string;
  /** The figure; `undefined` while it loads. */
  value: ReactNode | undefined;
  /** A line under the figure, such as "75% do total". */
  hint?: ReactNode;
  /**
   * What the figure counts, in one line under it (and read with it as the group's description), so that two figures
   * with similar names are never mistaken for each other.
   */
  description?: string;
  icon?: LucideIcon;
  className?: string;
};

/**
 * One figure with its title, as the summary rows of the admin pages show them. It is a named group, so the title is
 * read with the figure and a test can find the card by its title.
 *
 * In a grid the card spans three rows of it as a subgrid (title, figure, hint), so the cards of a row line their
 * figures up even when one title wraps to two lines on a narrow screen; the figure shrinks to fit a narrow card.
 */
export function StatCard({ title, value, hint, description, icon: Icon, className }: StatCardProps) {
  const titleId = useId();
  const descriptionId = useId();
  const loading = value === undefined;
  return (
    <Card
      role="group"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-busy={loading}
      data-slot="stat-card"
      // No container query on the card itself: its containment would turn the subgrid off.
      className={cn('row-span-3 grid grid-rows-subgrid content-start gap-1 py-4 sm:py-5', className)}
    >
      <div className="flex items-start justify-between gap-2 px-4 sm:px-5">
        <p id={titleId} className="min-w-0 text-sm font-medium text-muted-foreground">
          {title}
        </p>
        {Icon ? <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" /> : null}
      </div>
      <div className="@container px-4 sm:px-5">
        <p data-slot="stat-card-value" className="text-xl font-bold tabular-nums [overflow-wrap:anywhere] @[9rem]:text-2xl">
          {loading ? (
            <>
              <span aria-hidden="true">—</span>
              <span className="sr-only">{messages.common.loading}</span>
            </>
          ) : (
            value
          )}
        </p>
      </div>
      {/* Always there, even empty, so that every card of a row has the same three rows. */}
      <div className="grid content-start gap-0.5 px-4 text-xs text-muted-foreground sm:px-5">
        {hint && !loading ? <p>{hint}</p> : null}
        {description ? <p id={descriptionId}>{description}</p> : null}
      </div>
    </Card>
  );
}

type StatCardGridProps = {
  /** Why the figures could not be loaded; shown in place of the cards, with 'Tentar novamente'. */
  error?: unknown;
  /** Asks for the figures again (the query's `refetch`). */
  onRetry: () => void;
  /** The new attempt is on its way. */
  retrying?: boolean;
  /** The columns at each width, e.g. 'grid-cols-2 lg:grid-cols-4' (two columns already fit a phone). */
  className: string;
  children: ReactNode;
};

/** The row of `StatCard`s at the top of an admin page; the reason instead when their figures failed to load. */
export function StatCardGrid({ error, onRetry, retrying, className, children }: StatCardGridProps) {
  if (error) {
    return <ErrorState error={error} onRetry={onRetry} retrying={retrying} />;
  }
  return <div className={cn('grid gap-4', className)}>{children}</div>;
}
