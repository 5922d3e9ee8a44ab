import { PAYOUT_STATUSES, type AdminPayout, type PayoutStatus } from '@carteirinha/shared/contracts/payouts';
import { PAGE_SIZE_DEFAULT, PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, LoaderIcon } from 'lucide-react';
import { useState } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { rowsPlaceholder } from '@/components/ui/data-table';
import { ErrorText } from '@/components/ui/error-text';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useAdminPayouts, useChangePayoutStatus } from '../api/payouts';
import { PayoutsTable, periodLabel } from '../components/payouts-table';

const m = messages.payouts;

function isPayoutStatus(value: string): value is PayoutStatus {
  return PAYOUT_STATUSES.some((status) => status === value);
}

/** 'Marcar como pago', confirmed: the clinic's admins are e-mailed. A refusal stays in the dialog. */
function ConfirmPaidDialog({ payout, onClose }: { payout: AdminPayout | null; onClose: () => void }) {
  const change = useChangePayoutStatus();
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const confirm = async () => {
    if (!payout) return;
    setRefusal(null);
    try {
      await change.mutateAsync({ id: payout.id, change: { status: 'pago' } });
      toast.success(m.markedPaid);
      close();
    } catch (error) {
      setRefusal(formatMessage(m.updateError, { message: errorMessage(error) }));
    }
  };
  return (
    <AlertDialog open={payout !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{m.confirmPaidTitle}</AlertDialogTitle>
          <AlertDialogDescription>
            {payout ? formatMessage(m.confirmPaidText, { period: periodLabel(payout.period), clinic: payout.clinicName, net: formatMoney(payout.netCents) }) : null}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {refusal ? <ErrorText>{refusal}</ErrorText> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={change.isPending}>{m.cancel}</AlertDialogCancel>
          {/* A plain button: the dialog stays open until the server has answered. */}
          <Button disabled={change.isPending} onClick={asyncHandler(confirm)}>
            {m.markPaid}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The platform's Repasses: every clinic's monthly payouts; the admin marks each one processando, then pago. */
export function AdminPayoutsPage() {
  const [status, setStatus] = useState<PayoutStatus | undefined>(undefined);
  const [page, setPage] = useState(1);
  const payouts = useAdminPayouts({ page, pageSize: PAGE_SIZE_DEFAULT, status });
  const change = useChangePayoutStatus();
  const [paying, setPaying] = useState<AdminPayout | null>(null);
  const items = payouts.data?.items;

  const markProcessing = async (payout: AdminPayout) => {
    try {
      await change.mutateAsync({ id: payout.id, change: { status: 'processando' } });
      toast.success(m.markedProcessing);
    } catch (error) {
      toast.error(formatMessage(m.updateError, { message: errorMessage(error) }));
    }
  };

  return (
    <div className="space-y-6">
      <PageHeader title={m.adminTitle} description={m.adminDescription} />
      <div className="grid max-w-xs gap-2">
        <Label htmlFor="payout-status">{m.statusFilter}</Label>
        <NativeSelect
          id="payout-status"
          value={status ?? ''}
          onChange={(event) => {
            setStatus(isPayoutStatus(event.target.value) ? event.target.value : undefined);
            setPage(1);
          }}
        >
          <option value="">{m.allStatuses}</option>
          {PAYOUT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {m.statuses[value]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Card>
        <CardContent className="space-y-4">
          <PayoutsTable
            rows={items}
            caption={m.adminTitle}
            placeholder={rowsPlaceholder({ rows: items, error: payouts.error, onRetry: () => void payouts.refetch(), retrying: payouts.isFetching, emptyText: m.empty })}
            busy={payouts.isFetching}
            feePercent={PLATFORM_FEE_PERCENT}
            clinicOf={(payout) => payout.clinicName}
            actions={(payout) =>
              payout.status === 'pago' ? null : (
                <div className="flex flex-wrap justify-end gap-2">
                  {payout.status === 'pendente' ? (
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={change.isPending}
                      aria-label={`${m.markProcessing}: ${payout.clinicName} ${periodLabel(payout.period)}`}
                      onClick={asyncHandler(() => markProcessing(payout))}
                    >
                      <LoaderIcon aria-hidden="true" />
                      {m.markProcessing}
                    </Button>
                  ) : null}
                  <Button size="sm" aria-label={`${m.markPaid}: ${payout.clinicName} ${periodLabel(payout.period)}`} onClick={() => setPaying(payout)}>
                    <CheckCircle2Icon aria-hidden="true" />
                    {m.markPaid}
                  </Button>
                </div>
              )
            }
          />
          <Pagination page={page} onPageChange={setPage} shown={payouts.data} stale={payouts.isPlaceholderData} />
        </CardContent>
      </Card>
      <ConfirmPaidDialog payout={paying} onClose={() => setPaying(null)} />
    </div>
  );
}
