import type { TeamMember } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { UserPlusIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/error-message';
import { lazyComponent } from '@/lib/lazy-component';
import { toast } from '@/lib/toasts';
import { useResendTeamInvitation, useTeam } from '../api/team';
import { TeamTable } from '../components/team-table';

// The dialogs load when first opened.
const InviteMemberDialog = lazyComponent(() => import('../components/invite-member-dialog'), (module) => module.InviteMemberDialog);
const ChangeRoleDialog = lazyComponent(() => import('../components/change-role-dialog'), (module) => module.ChangeRoleDialog);
const RemoveMemberDialog = lazyComponent(() => import('../components/remove-member-dialog'), (module) => module.RemoveMemberDialog);

const t = messages.team;

type OpenDialog = { kind: 'none' } | { kind: 'invite' } | { kind: 'role'; member: TeamMember } | { kind: 'remove'; member: TeamMember };

/**
 * Equipe (issue 25, clinic_admin only): who has access to the clinic's portal, with which role; invitations by e-mail
 * whose link lands on the clinic's own site; role changes and removals that end the person's sessions at once.
 */
export function ClinicTeamPage() {
  const team = useTeam();
  const resend = useResendTeamInvitation();
  const [dialog, setDialog] = useState<OpenDialog>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  const resendInvitation = (member: TeamMember) =>
    resend.mutate(member.userId, {
      onSuccess: () => toast.success(t.resent),
      onError: (error) => {
        console.warn('Falha ao reenviar o convite', error);
        toast.error(formatMessage(t.resendError, { message: errorMessage(error) }));
      },
    });

  return (
    <>
      <PageHeader
        title={t.title}
        description={t.description}
        actions={
          <Button onClick={() => setDialog({ kind: 'invite' })}>
            <UserPlusIcon aria-hidden="true" />
            {t.invite}
          </Button>
        }
      />

      <TeamTable
        members={team.data}
        error={team.error}
        onRetry={() => void team.refetch()}
        busy={team.isFetching}
        actions={{
          onChangeRole: (member) => setDialog({ kind: 'role', member }),
          onRemove: (member) => setDialog({ kind: 'remove', member }),
          onResend: resendInvitation,
          resending: resend.isPending ? (resend.variables ?? null) : null,
        }}
      />

      <LoadWhenOpen open={dialog.kind === 'invite'}>
        <InviteMemberDialog open={dialog.kind === 'invite'} onClose={closeDialog} />
      </LoadWhenOpen>
      <LoadWhenOpen open={dialog.kind === 'role'}>
        <ChangeRoleDialog member={dialog.kind === 'role' ? dialog.member : null} onClose={closeDialog} />
      </LoadWhenOpen>
      <LoadWhenOpen open={dialog.kind === 'remove'}>
        <RemoveMemberDialog member={dialog.kind === 'remove' ? dialog.member : null} onClose={closeDialog} />
      </LoadWhenOpen>
    </>
  );
}
