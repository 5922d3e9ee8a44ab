import { accountDeletionResponseSchema } from '@carteirinha/shared/contracts/my-data';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useClinicTenant } from '@/features/tenancy/api/get-tenant';

const m = messages.myData;

/**
 * Where a deleted account lands, signed out (ADR 027): what was done, the subscription's protocol and refund when one
 * was cancelled, and what was kept and why. The answer travels in the navigation's state: a reload shows the general
 * words only, as the server no longer knows who this was.
 */
export function AccountDeletedPage() {
  const location = useLocation();
  const parsed = accountDeletionResponseSchema.safeParse(location.state);
  const outcome = parsed.success ? parsed.data : null;
  const clinic = useClinicTenant()?.clinic ?? null;
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted px-4 py-16">
      <Card className="w-full max-w-xl">
        <CardHeader>
          {clinic ? <p className="text-sm font-medium text-muted-foreground">{clinic.name}</p> : null}
          <CardTitle asChild>
            <h1>{m.deletedTitle}</h1>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm" data-testid="account-deleted">
          <p>{m.deletedText}</p>
          {outcome?.cancellation ? <p>{formatMessage(m.deletedCancellation, { protocol: outcome.cancellation.protocol })}</p> : null}
          {outcome?.cancellation && outcome.cancellation.refundCents > 0 ? <p>{formatMessage(m.deletedRefund, { amount: formatMoney(outcome.cancellation.refundCents) })}</p> : null}
          {outcome ? <p>{formatMessage(m.deletedKept, { charges: outcome.keptCharges, validations: outcome.keptValidations })}</p> : null}
          <div className="grid gap-1">
            <h2 className="font-medium">{m.keptListTitle}</h2>
            <ul className="list-disc space-y-1 pl-5">
              {m.keptList.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
          <div>
            <Button asChild>
              <Link to="/">{m.backHome}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
