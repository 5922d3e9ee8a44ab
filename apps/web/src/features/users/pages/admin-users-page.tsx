import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { USER_STATUS_LABELS, type AdminUser } from '@carteirinha/shared/contracts/users';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import { EllipsisIcon, PlusIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useMe } from '@/app/session';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/error-message';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { useUsers } from '../api/list-users';
import { useResendInvitation } from '../api/resend-invitation';
import { RemoveRoleDialog } from '../components/remove-role-dialog';
import { UserCountCards } from '../components/user-count-cards';
import { UserProfileSheet } from '../components/user-profile-sheet';
import { UserRoleDialog } from '../components/user-role-dialog';

const m = messages.userRoles;
const u = messages.adminUsers;
const c = u.columns;
/** Shown from the md breakpoint; below it their content is folded into the first cell (see `UserRow`). */
const SECONDARY = 'hidden md:table-cell';
const COLUMNS: readonly { label: string; className?: string }[] = [
  { label: c.email },
  { label: c.role, className: SECONDARY },
  { label: c.clinic, className: SECONDARY },
  { label: c.status, className: SECONDARY },
  { label: c.lastSignIn, className: SECONDARY },
  { label: c.actions, className: 'w-12' },
];
/** The dashboard's 'Novo Usuário' quick action links to /admin/usuarios?novo=1. */
const NEW_USER_PARAM = 'novo';

type RoleDialogState = { open: false } | { open: true; user: AdminUser | null };

type RowActions = {
  onViewProfile: (user: AdminUser) => void;
  onChangeRole: (user: AdminUser) => void;
  onResendInvitation: (user: AdminUser) => void;
  onDeactivate: (user: AdminUser) => void;
};

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

/**
 * The first cell: the e-mail on one line (cut with an ellipsis, the whole address in its title, never broken inside a
 * word), the name under it; on a phone also the role, clinic, status and last sign-in that the hidden columns hold.
 */
function IdentityCell({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  return (
    <TableCell className="w-full max-w-0 md:w-auto md:max-w-none">
      <div className="truncate font-medium md:max-w-xs" title={user.email}>
        {user.email}
        {isSelf ? <span className="font-normal text-muted-foreground"> ({u.you})</span> : null}
      </div>
      {/* An invited account's name is only its e-mail's local part until the person fills it in: the e-mail says more. */}
      {user.fullName && !user.invitationPending ? <div className="truncate text-xs text-muted-foreground md:max-w-xs">{user.fullName}</div> : null}
      <div className="mt-2 grid gap-1 text-xs text-muted-foreground md:hidden">
        <span>
          {roleLabel(user)} · {user.clinicName ?? '-'}
        </span>
        <span className="flex flex-wrap items-center gap-2">
          <StatusBadge user={user} />
          <span>
            {c.lastSignIn}: {lastSignInLabel(user)}
          </span>
        </span>
      </div>
    </TableCell>
  );
}

function UserRow({ user, isSelf, actions }: { user: AdminUser; isSelf: boolean; actions: RowActions }) {
  return (
    <TableRow>
      <IdentityCell user={user} isSelf={isSelf} />
      <TableCell className={SECONDARY}>{roleLabel(user)}</TableCell>
      <TableCell className={SECONDARY}>{user.clinicName ?? '-'}</TableCell>
      <TableCell className={SECONDARY}>
        <StatusBadge user={user} />
      </TableCell>
      <TableCell className={`${SECONDARY} whitespace-nowrap tabular-nums`}>{lastSignInLabel(user)}</TableCell>
      <TableCell>
        {/* Not modal: a modal menu that opens a dialog can leave the page unclickable when both close. */}
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" className="size-8" aria-label={formatMessage(m.rowActions, { email: user.email })}>
              <EllipsisIcon aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => actions.onViewProfile(user)}>{m.viewProfile}</DropdownMenuItem>
            {/* An admin cannot change or deactivate their own account (the server refuses it too). */}
            {isSelf ? null : (
              <>
                <DropdownMenuItem onSelect={() => actions.onChangeRole(user)}>{m.changeRole}</DropdownMenuItem>
                {user.invitationPending && user.role ? (
                  <DropdownMenuItem onSelect={() => actions.onResendInvitation(user)}>{u.resendInvitation}</DropdownMenuItem>
                ) : null}
                <DropdownMenuSeparator />
                {/* A closed account has nothing left to close; 'Novo Usuário' reopens it. */}
                <DropdownMenuItem variant="destructive" disabled={user.status === 'disabled'} onSelect={() => actions.onDeactivate(user)}>
                  {m.deactivate}
                </DropdownMenuItem>
              </>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      </TableCell>
    </TableRow>
  );
}

/** One row across the whole table, for the loading, empty and error states. */
function MessageRow({ children }: { children: ReactNode }) {
  return <TableMessageRow colSpan={COLUMNS.length}>{children}</TableMessageRow>;
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

  const users = useUsers({ q, page, pageSize: PAGE_SIZE_DEFAULT });
  const { data, error, isPending, isFetching, isPlaceholderData } = users;
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

  const rowActions: RowActions = {
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

  function renderRows() {
    if (isPending) return <MessageRow>{messages.common.loading}</MessageRow>;
    if (error) {
      return (
        <MessageRow>
          <ErrorState variant="inline" {...retryPropsOf(users)} />
        </MessageRow>
      );
    }
    if (data.items.length === 0) return <MessageRow>{messages.empty.users}</MessageRow>;
    return data.items.map((user) => <UserRow key={user.id} user={user} isSelf={user.id === me?.user.id} actions={rowActions} />);
  }

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

      <Table aria-busy={isFetching}>
        <TableCaption className="sr-only">{m.tableCaption}</TableCaption>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {COLUMNS.map((column) => (
              <TableHead key={column.label} scope="col" className={column.className}>
                {column.label}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>{renderRows()}</TableBody>
      </Table>

      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />

      <UserRoleDialog open={roleDialog.open} onOpenChange={(open) => (open ? undefined : closeRoleDialog())} user={roleDialog.open ? roleDialog.user : null} />
      <UserProfileSheet userId={profileUserId} onClose={() => setProfileUserId(null)} />
      <RemoveRoleDialog user={userToDeactivate} onClose={() => setUserToDeactivate(null)} />
    </>
  );
}
