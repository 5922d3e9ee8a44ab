import type { ContractTerms } from '@carteirinha/shared/contracts/subscriptions';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ShieldAlertIcon } from 'lucide-react';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';

const s = messages.subscriptionPage;

type TermsQuery = { data: ContractTerms | undefined; error: unknown; isPending: boolean; isFetching: boolean; refetch: () => Promise<unknown> };

/**
 * The clinic's current terms at checkout: that the card is not a health plan is said in plain sight, and the whole
 * text opens in place (a disclosure), so the patient reads what they accept without leaving the dialog.
 */
export function TermsPanel({ query }: { query: TermsQuery }) {
  return (
    <div className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm">
      <p className="flex items-start gap-2 font-medium">
        <ShieldAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
        {messages.checkout.notHealthPlan}
      </p>
      {query.data ? (
        <details className="group">
          <summary className="cursor-pointer font-medium underline underline-offset-4">
            <span className="group-open:hidden">{s.termsShow}</span>
            <span className="hidden group-open:inline">{s.termsHide}</span>
            <span className="sr-only"> — {formatMessage(s.termsTitle, { version: query.data.version })}</span>
          </summary>
          <div className="mt-2 grid gap-2">
            <p className="font-medium">{formatMessage(s.termsTitle, { version: query.data.version })}</p>
            <div data-testid="terms-text" className="max-h-48 overflow-y-auto rounded border bg-background p-3 whitespace-pre-wrap" tabIndex={0}>
              {query.data.body}
            </div>
          </div>
        </details>
      ) : query.isPending && !query.error ? (
        <p className="text-muted-foreground">{s.termsLoading}</p>
      ) : (
        <ErrorState variant="inline" {...retryPropsOf(query)} />
      )}
    </div>
  );
}
