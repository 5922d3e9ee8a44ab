import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { USER_STATUS_LABELS, type AdminUser } from '@carteirinha/shared/contracts/users';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import { EllipsisIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMe } from '@/app/session';
import { Badge } from '@/components/ui/badge';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { OnDemandMenu } from '@/components/ui/on-demand-menu';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { usePageCursors } from '@/lib/use-page-cursor';
import { useUsers } from '../api/list-users';
import { useResendInvitation } from '../api/resend-invitation';
import { UserCountCards } from '../components/user-count-cards';
import type { UserRowActions } from '../components/user-row-menu';
import { lazyComponent } from '@/lib/lazy-component';

// The role form, the profile and the deactivation load when first opened.
const UserRoleDialog = lazyComponent(() => import('../components/user-role-dialog'), (m) => m.UserRoleDialog);
const UserProfileSheet = lazyComponent(() => import('../components/user-profile-sheet'), (m) => m.UserProfileSheet);
const RemoveRoleDialog = lazyComponent(() => import('../components/remove-role-dialog'), (m) => m.RemoveRoleDialog);
// The row menu (Radix's menu and its positioning) loads when a row's menu is first opened.
const UserRowMenu = lazyComponent(() => import('../components/user-row-menu'), (m) => m.UserRowMenu);

const m = messages.userRoles;
const u = messages.adminUsers;
const c = u.columns;
/** Below this width of the list's own container each account is a card with every value and its menu. */
const CARDS_BELOW_PX = 720;
/** The dashboard's 'Novo Usuário' quick action links to /admin/usuarios?novo=1. */
const NEW_USER_PARAM = 'novo';

type RoleDialogState = { open: false } | { open: true; user: AdminUser | null };

function roleLabel(user: AdminUser): string {
  return user.role ? ROLE_LABELS[user.role] : '-';
}

function lastSignInLabel(user: AdminUser): string {
  return user.lastSignInAt ? formatDateTime(user.lastSignInAt) : '-';
}

function StatusBadge({ user }: { user: AdminUser }) {
  const variant = { active: 'default', invited: 'outline', disabled: 'secondary' } as const;
  return <Badge variant={variant[user.status]}>{USER_STATUS_LABELS[user.status]}</Badge>;
}

/** The e-mail on one line (cut with an ellipsis, the whole address in its title), the name under it. */
function Identity({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  return (
    <div className="min-w-0">
      <div className="truncate font-medium md:max-w-xs" title={user.email}>
        {user.email}
        {isSelf ? <span className="font-normal text-muted-foreground"> ({u.you})</span> : null}
      </div>
      {/* An invited account's name is only its e-mail's local part until the person fills it in: the e-mail says more. */}
      {user.fullName && !user.invitationPending ? <div className="truncate text-xs font-normal text-muted-foreground md:max-w-xs">{user.fullName}</div> : null}
    </div>
  );
}

function columnsFor(selfId: string | undefined, actions: UserRowActions): DataColumn<AdminUser>[] {
  return [
    { id: 'email', header: c.email, cell: (user) => <Identity user={user} isSelf={user.id === selfId} />, className: 'max-w-0 w-full md:w-auto md:max-w-none' },
    { id: 'role', header: c.role, cell: roleLabel },
    { id: 'clinic', header: c.clinic, cell: (user) => user.clinicName ?? '-' },
    { id: 'status', header: c.status, cell: (user) => <StatusBadge user={user} /> },
    { id: 'lastSignIn', header: c.lastSignIn, cell: lastSignInLabel, className: 'whitespace-nowrap tabular-nums' },
    {
      id: 'actions',
      header: c.actions,
      cell: (user) => (
        <OnDemandMenu className="size-8" label={formatMessage(m.rowActions, { email: user.email })} icon={<EllipsisIcon aria-hidden="true" />}>
          <UserRowMenu user={user} isSelf={user.id === selfId} actions={actions} defaultOpen />
        </OnDemandMenu>
      ),
      className: 'w-12',
    },
  ];
}

/** Admin 'Usuários' (specification §2): who has which role, in which clinic, and the role changes. */
export function AdminUsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { search, setSearch, q, page, setPage } = useListSearch();
  const [roleDialog, setRoleDialog] = useState<RoleDialogState>(() =>
    searchParams.get(NEW_USER_PARAM) === '1' ? { open: true, user: null } : { open: false },
  );
  const [profileUserId, setProfileUserId] = useState<string | null>(null);
  const [userToDeactivate, setUserToDeactivate] = useState<AdminUser | null>(null);
  const { data: me } = useMe();
  const resendInvitation = useResendInvitation();

  const cursors = usePageCursors(q);
  const users = useUsers({ q, page, pageSize: PAGE_SIZE_DEFAULT, after: cursors.after(page) });
  const { data, error, isPending, isFetching, isPlaceholderData } = users;
  cursors.remember(data, isPlaceholderData);
  useClampedPage(page, setPage, data);

  function closeRoleDialog() {
    setRoleDialog({ open: false });
    // Once used, the quick action's parameter goes, so a reload does not open the dialog again.
    if (searchParams.has(NEW_USER_PARAM)) {
      setSearchParams(
        (current) => {
          current.delete(NEW_USER_PARAM);
          return current;
        },
        { replace: true },
      );
    }
  }

  const rowActions: UserRowActions = {
    onViewProfile: (user) => setProfileUserId(user.id),
    onChangeRole: (user) => setRoleDialog({ open: true, user }),
    onResendInvitation: (user) =>
      resendInvitation.mutate(user.id, {
        onSuccess: () => toast.success(u.invitationResent),
        onError: (failure) => {
          console.warn('Falha ao reenviar o convite', failure);
          toast.error(formatMessage(u.resendError, { message: errorMessage(failure) }));
        },
      }),
    onDeactivate: (user) => setUserToDeactivate(user),
  };

  return (
    <>
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          <Button onClick={() => setRoleDialog({ open: true, user: null })}>
            <PlusIcon aria-hidden="true" />
            {m.newUser}
          </Button>
        }
      />

      <UserCountCards />

      <ListSearchBox label={m.searchLabel} placeholder={m.searchPlaceholder} value={search} onChange={setSearch} />

      <DataTable
        rows={data?.items}
        rowKey={(user) => user.id}
        columns={columnsFor(me?.user.id, rowActions)}
        titleColumn="email"
        actionsColumn="actions"
        caption={m.tableCaption}
        placeholder={isPending ? messages.common.loading : rowsPlaceholder({ rows: data?.items, error, onRetry: () => void users.refetch(), retrying: isFetching, emptyText: messages.empty.users })}
        cardsBelow={CARDS_BELOW_PX}
        busy={isFetching}
      />

      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />

      <LoadWhenOpen open={roleDialog.open}>
        <UserRoleDialog open={roleDialog.open} onOpenChange={(open) => (open ? undefined : closeRoleDialog())} user={roleDialog.open ? roleDialog.user : null} />
      </LoadWhenOpen>
      <LoadWhenOpen open={profileUserId !== null}>
        <UserProfileSheet userId={profileUserId} onClose={() => setProfileUserId(null)} />
      </LoadWhenOpen>
      <LoadWhenOpen open={userToDeactivate !== null}>
        <RemoveRoleDialog user={userToDeactivate} onClose={() => setUserToDeactivate(null)} />
      </LoadWhenOpen>
    </>
  );
}
