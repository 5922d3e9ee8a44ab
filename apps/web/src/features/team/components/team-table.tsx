import type { TeamMember } from '@carteirinha/shared/contracts/users';
import { formatDateTime } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';

const t = messages.team;
const c = t.columns;

/** Below this width of the list's own container each person is a card with every value and action. */
const CARDS_BELOW_PX = 900;

export type MemberActions = {
  onChangeRole: (member: TeamMember) => void;
  onRemove: (member: TeamMember) => void;
  onResend: (member: TeamMember) => void;
  /** The invitation whose link is being sent again, if any. */
  resending: string | null;
};

function MemberName({ member }: { member: TeamMember }) {
  return (
    <span className="font-medium">
      {member.fullName || member.email}
      {member.isSelf ? <span className="font-normal text-muted-foreground"> {t.you}</span> : null}
    </span>
  );
}

function StatusBadge({ member }: { member: TeamMember }) {
  return member.status === 'invited' ? <Badge variant="outline">{t.statusInvited}</Badge> : <Badge>{t.statusActive}</Badge>;
}

/**
 * A pending invitation is resent or cancelled; a member's role is changed or their access removed. The last
 * administrator is offered both too: the server refuses, and says why where it was asked.
 */
function MemberButtons({ member, actions }: { member: TeamMember; actions: MemberActions }) {
  const name = member.fullName || member.email;
  if (member.status === 'invited') {
    return (
      <>
        <Button variant="outline" size="sm" disabled={actions.resending === member.userId} aria-label={`${t.resend}: ${member.email}`} onClick={() => actions.onResend(member)}>
          {t.resend}
        </Button>
        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`${t.cancelInvitation}: ${member.email}`} onClick={() => actions.onRemove(member)}>
          {t.cancelInvitation}
        </Button>
      </>
    );
  }
  return (
    <>
      <Button variant="outline" size="sm" aria-label={`${t.changeRole}: ${name}`} onClick={() => actions.onChangeRole(member)}>
        {t.changeRole}
      </Button>
      <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`${t.remove}: ${name}`} onClick={() => actions.onRemove(member)}>
        {t.remove}
      </Button>
    </>
  );
}

function columnsFor(actions: MemberActions): DataColumn<TeamMember>[] {
  return [
    { id: 'name', header: c.name, cell: (member) => <MemberName member={member} /> },
    { id: 'email', header: c.email, cell: (member) => <span className="break-all">{member.email}</span> },
    { id: 'role', header: c.role, cell: (member) => ROLE_LABELS[member.role] },
    { id: 'status', header: c.status, cell: (member) => <StatusBadge member={member} /> },
    { id: 'lastSignIn', header: c.lastSignIn, cell: (member) => (member.lastSignInAt ? formatDateTime(member.lastSignInAt) : t.never), className: 'whitespace-nowrap tabular-nums' },
    {
      id: 'actions',
      header: c.actions,
      headerHidden: true,
      cell: (member) => (
        <div className="flex justify-end gap-2">
          <MemberButtons member={member} actions={actions} />
        </div>
      ),
      cardCell: (member) => <MemberButtons member={member} actions={actions} />,
      align: 'right',
    },
  ];
}

type TeamTableProps = { members: TeamMember[] | undefined; error: Error | null; onRetry: () => void; busy: boolean; actions: MemberActions };

/** Equipe's list: a table on a wide screen, a card per person on a phone. */
export function TeamTable({ members, error, onRetry, busy, actions }: TeamTableProps) {
  return (
    <DataTable
      rows={members}
      rowKey={(member) => member.userId}
      columns={columnsFor(actions)}
      titleColumn="name"
      actionsColumn="actions"
      caption={t.caption}
      placeholder={rowsPlaceholder({ rows: members, error, onRetry, retrying: busy, emptyText: t.empty })}
      cardsBelow={CARDS_BELOW_PX}
      busy={busy}
    />
  );
}
