import { CLOSED_CLINIC_TEXT, type ClosedStanding } from '@carteirinha/shared/clinic-standing';
import { messages } from '@carteirinha/shared/messages';
import { CircleAlertIcon, LogOutIcon, StoreIcon } from 'lucide-react';
import { useSignOut } from '@/app/use-sign-out';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardIconHeader } from '@/components/ui/card';

/**
 * Shown instead of the clinic portal to the team of a suspended, cancelled or expired clinic (ADR 010): the server
 * refuses every clinic endpoint (CLINIC_INACTIVE), so the page says why and whom to ask, and offers a way out.
 */
export function ClinicClosedPage({ clinicName, standing }: { clinicName: string; standing: ClosedStanding }) {
  const signOut = useSignOut();
  const { title, text } = CLOSED_CLINIC_TEXT[standing];
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/60 p-4">
      <Card data-testid="clinic-closed" className="w-full max-w-lg">
        <CardIconHeader icon={StoreIcon} title={title} description={clinicName} level={1} titleClassName="text-xl" />
        <CardContent className="grid gap-6">
          <p>{text}</p>
          <Button type="button" variant="ghost" className="justify-self-start" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
            <LogOutIcon aria-hidden="true" />
            {messages.sidebar.signOut}
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}

/** Above every page of a closed clinic's patient portal: the programme is off, their own records are still there. */
export function PatientClinicClosedNotice() {
  return (
    <div
      role="status"
      data-testid="clinic-closed-notice"
      className="flex items-center gap-3 rounded-lg border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm font-medium"
    >
      <CircleAlertIcon aria-hidden="true" className="size-4 shrink-0 text-destructive" />
      <p>{messages.tenancy.patientClinicInactive}</p>
    </div>
  );
}
