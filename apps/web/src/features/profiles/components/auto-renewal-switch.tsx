import type { MySubscription } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useId, useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog';
import { ErrorText } from '@/components/ui/error-text';
import { Switch } from '@/components/ui/switch';
import { useSetAutoRenewal } from '@/features/subscriptions/api/auto-renewal';
import { errorMessage } from '@/lib/error-message';
import { lazyComponent } from '@/lib/lazy-component';
import { toast } from '@/lib/toasts';

const p = messages.patientProfile;
const r = messages.autoRenewal;

// Only a card subscription turned back on asks anything more (the card): its form loads then.
const AutoRenewalCardDialog = lazyComponent(() => import('@/features/subscriptions/components/auto-renewal-card-dialog'), (m) => m.AutoRenewalCardDialog);

/**
 * 'Renovação automática' as a switch (issue 27): off asks first (the plan ends at the date paid for), on renews again
 * while that date has not come; a plan the patient cannot switch (never paid, company-paid, ended) shows the words only.
 */
export function AutoRenewalSwitch({ subscription }: { subscription: MySubscription }) {
  const id = useId();
  const setAutoRenewal = useSetAutoRenewal();
  const [confirmingOff, setConfirmingOff] = useState(false);
  const [askingCard, setAskingCard] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const paidThrough = subscription.expiresAt ? formatDate(subscription.expiresAt) : '-';
  const on = subscription.autoRenewal === 'on';

  const turnOn = async () => {
    if (subscription.paymentMethod === 'credit_card') {
      setAskingCard(true);
      return;
    }
    setFailure(null);
    try {
      await setAutoRenewal.mutateAsync({ enabled: true });
      toast.success(r.turnedOn);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-3">
        <p id={id} className="text-sm font-medium" data-testid="auto-renewal-state">
          {on ? p.autoRenewalOn : formatMessage(p.autoRenewalOff, { date: paidThrough })}
        </p>
        <Switch
          aria-label={r.label}
          aria-describedby={id}
          checked={on}
          disabled={subscription.autoRenewal === 'fixed' || setAutoRenewal.isPending}
          onCheckedChange={(checked) => (checked ? void turnOn() : setConfirmingOff(true))}
        />
      </div>
      {failure ? <ErrorText>{failure}</ErrorText> : null}
      <ConfirmActionDialog
        open={confirmingOff}
        title={r.offTitle}
        description={formatMessage(r.offBody, { date: paidThrough })}
        cancelLabel={r.keepOn}
        confirmLabel={r.offConfirm}
        onConfirm={async () => {
          await setAutoRenewal.mutateAsync({ enabled: false });
          toast.success(formatMessage(r.turnedOff, { date: paidThrough }));
        }}
        onClose={() => setConfirmingOff(false)}
      />
      <LoadWhenOpen open={askingCard}>
        <AutoRenewalCardDialog
          open={askingCard}
          onClose={() => setAskingCard(false)}
          onDone={() => {
            setAskingCard(false);
            toast.success(r.turnedOn);
          }}
        />
      </LoadWhenOpen>
    </div>
  );
}
