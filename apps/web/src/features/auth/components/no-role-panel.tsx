import { messages } from '@carteirinha/shared/messages';
import { LogOutIcon, ShieldAlertIcon } from 'lucide-react';
import { useSignOut } from '@/app/use-sign-out';
import { Button } from '@/components/ui/button';

/** Shown on /auth to a signed-in user who has no role yet, in place of the sign-in tabs. */
export function NoRolePanel({ email }: { email: string }) {
  const signOut = useSignOut();
  return (
    <div data-testid="no-role-panel" className="flex flex-col items-center gap-4 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-muted">
        <ShieldAlertIcon aria-hidden="true" className="size-6 text-muted-foreground" />
      </div>
      <h2 className="text-lg font-semibold">{messages.auth.noRoleTitle}</h2>
      <p className="text-sm text-muted-foreground">{messages.auth.noRole}</p>
      <p className="text-sm">{email}</p>
      <Button variant="outline" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
        <LogOutIcon aria-hidden="true" />
        {messages.sidebar.signOut}
      </Button>
    </div>
  );
}
