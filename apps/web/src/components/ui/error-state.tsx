import { messages } from '@carteirinha/shared/messages';
import { RotateCwIcon } from 'lucide-react';
import { errorMessage } from '@/lib/error-message';
import { cn } from '@/lib/utils';
import { Button } from './button';

type ErrorStateProps = {
  /** Why the data did not load: the server's pt-BR message, or the network's. */
  error: unknown;
  /** Asks again (usually the query's `refetch`). */
  onRetry: () => void;
  /** The new attempt is on its way. */
  retrying?: boolean;
  /** `inline` sits in a table row or a dialog; `block` frames the place where the data would be. */
  variant?: 'block' | 'inline';
  className?: string;
};

/**
 * The one error state of a list, a page or a card whose data did not load: the reason, announced at once, and
 * 'Tentar novamente'. The query client shows it at once for a 4xx and after one retry for a 5xx (lib/query-retry.ts).
 */
export function ErrorState({ error, onRetry, retrying = false, variant = 'block', className }: ErrorStateProps) {
  return (
    <div
      data-slot="error-state"
      className={cn(
        'flex flex-col items-center justify-center gap-3 text-center',
        variant === 'block' && 'rounded-xl border border-dashed px-4 py-8',
        className,
      )}
    >
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error)}
      </p>
      <Button type="button" variant="outline" size="sm" disabled={retrying} onClick={onRetry}>
        <RotateCwIcon aria-hidden="true" className={cn(retrying && 'motion-safe:animate-spin')} />
        {retrying ? messages.common.retrying : messages.common.retry}
      </Button>
    </div>
  );
}

/** What `ErrorState` needs from a TanStack query. */
type RetryableQuery = { error: unknown; refetch: () => Promise<unknown>; isFetching: boolean };

/** The `ErrorState` props of a failed query: its error, its refetch and whether that is under way. */
export function retryPropsOf(query: RetryableQuery): Pick<ErrorStateProps, 'error' | 'onRetry' | 'retrying'> {
  return { error: query.error, onRetry: () => void query.refetch(), retrying: query.isFetching };
}
