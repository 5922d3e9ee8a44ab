import type { InvitationPreview } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useInvitation } from '../api/get-invitation';
import { AcceptInvitationForm } from '../components/accept-invitation-form';
import { AuthShell } from '../components/auth-shell';
import { InvalidLinkNotice } from '../components/invalid-link-notice';

function welcomeOf({ role, clinicName }: InvitationPreview): string {
  if (!role) return messages.auth.acceptInviteWelcome;
  const roleLabel = ROLE_LABELS[role];
  return clinicName
    ? formatMessage(messages.auth.acceptInviteWelcomeClinic, { clinic: clinicName, role: roleLabel })
    : formatMessage(messages.auth.acceptInviteWelcomePlatform, { role: roleLabel });
}

function InvitationBody({ token }: { token: string }) {
  const invitation = useInvitation(token);
  const [tokenRejected, setTokenRejected] = useState(false);
  if (invitation.isPending) return <CenteredSpinner />;
  if (invitation.isError || tokenRejected) return <InvalidLinkNotice />;
  return (
    <div className="grid gap-4">
      <div className="grid gap-1 text-center">
        <p data-testid="invitation-welcome" className="font-medium">
          {welcomeOf(invitation.data)}
        </p>
        <p className="text-sm text-muted-foreground">{formatMessage(messages.auth.acceptInviteAccount, { email: invitation.data.email })}</p>
      </div>
      <AcceptInvitationForm token={token} email={invitation.data.email} onTokenRejected={() => setTokenRejected(true)} />
    </div>
  );
}

/**
 * /auth/aceitar-convite?token=…: where an invitation from /admin/usuarios leads (users/invitations.ts). The person
 * never had a password: a welcome with the clinic (or the platform) and the role, then 'Criar senha', then the portal.
 */
export function AcceptInvitationPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return (
    <AuthShell>
      <Card>
        <CardHeader className="text-center">
          <CardTitle asChild>
            <h1 className="text-2xl font-bold">{messages.auth.acceptInviteTitle}</h1>
          </CardTitle>
        </CardHeader>
        <CardContent>{token ? <InvitationBody token={token} /> : <InvalidLinkNotice />}</CardContent>
      </Card>
    </AuthShell>
  );
}
