import type { CancellationPreview } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useCancellationPreview, useCancelSubscription } from '../api/cancel-subscription';

const s = messages.subscriptionPage;
const c = messages.cancellation;

/** The general rule in the catalogue's words, for the case the server says applies. */
function ruleOf(preview: CancellationPreview): string {
  switch (preview.kind) {
    case 'freeWithdrawal':
      return c.freeWithdrawalRule;
    case 'endOfPaidPeriod':
      return c.afterWithdrawalRule;
    case 'unpaid':
      return c.pendingRule;
  }
}

function CancellationRules({ preview }: { preview: CancellationPreview }) {
  // The server words the rule as the clinic's terms do; the catalogue's sentence is the fallback.
  const rule = preview.rule.trim() || ruleOf(preview);
  return (
    <div className="grid gap-2 text-sm" data-testid="cancellation-rules">
      <p>{rule}</p>
      {preview.kind === 'freeWithdrawal' ? (
        <>
          <p>{formatMessage(s.withdrawalUntil, { date: formatDate(preview.withdrawalEndsAt) })}</p>
          {/* The sum the patient agrees to before confirming: paid, minus the discounts received (CDC art. 49). */}
          <div className="grid gap-1" data-testid="withdrawal-sum">
            <p>{formatMessage(s.withdrawalPaid, { amount: formatMoney(preview.paidCents) })}</p>
            <p>{formatMessage(s.withdrawalDiscounts, { amount: formatMoney(preview.discountsCents) })}</p>
            <p className="font-medium">{formatMessage(s.refund, { amount: formatMoney(preview.refundCents) })}</p>
          </div>
        </>
      ) : preview.freeWithdrawal ? (
        <p>{formatMessage(s.withdrawalUntil, { date: formatDate(preview.withdrawalEndsAt) })}</p>
      ) : null}
      {preview.benefitsUntil ? <p className="font-medium">{formatMessage(s.benefitsUntil, { date: formatDate(preview.benefitsUntil) })}</p> : null}
    </div>
  );
}

type CancelSubscriptionDialogProps = {
  open: boolean;
  onClose: () => void;
  /** The subscription is cancelled (or its cancellation scheduled). */
  onCanceled: () => void;
};

/** Self-service 'Cancelar assinatura' (issue 14, CDC art. 49): the rule that applies first, then the confirmation. */
export function CancelSubscriptionDialog({ open, onClose, onCanceled }: CancelSubscriptionDialogProps) {
  const preview = useCancellationPreview(open);
  const cancel = useCancelSubscription();

  const confirm = async () => {
    try {
      await cancel.mutateAsync();
      toast.success(s.canceled);
      onCanceled();
    } catch (error) {
      toast.error(formatMessage(s.cancelError, { message: errorMessage(error) }));
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{messages.checkout.cancelSubscription}</DialogTitle>
          <DialogDescription>{s.cancelDescription}</DialogDescription>
        </DialogHeader>
        {preview.data ? (
          <CancellationRules preview={preview.data} />
        ) : preview.isError ? (
          <ErrorState variant="inline" {...retryPropsOf(preview)} />
        ) : (
          <p className="text-sm text-muted-foreground">{s.cancelLoading}</p>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            {s.keep}
          </Button>
          <Button type="button" variant="destructive" disabled={!preview.data || cancel.isPending} onClick={() => void confirm()}>
            {cancel.isPending ? s.canceling : s.confirmCancel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
