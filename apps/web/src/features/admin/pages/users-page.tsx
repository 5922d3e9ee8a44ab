import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '@carteirinha/shared/constants';
import { USER_STATUS_LABELS, type AdminUser } from '@carteirinha/shared/contracts/users';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import { useQuery } from '@tanstack/react-query';
import { EllipsisIcon, PlusIcon, SearchIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from '@/components/ui/table';
import { listClinicsQueryOptions } from '@/features/clinics/api/list-clinics';
import { useUsers } from '@/features/users/api/list-users';
import { RemoveRoleDialog } from '@/features/users/components/remove-role-dialog';
import { UserCountCards } from '@/features/users/components/user-count-cards';
import { UserProfileSheet } from '@/features/users/components/user-profile-sheet';
import { UserRoleDialog, type ClinicOption } from '@/features/users/components/user-role-dialog';
import { errorMessage } from '@/lib/error-message';
import { useDebouncedValue } from '@/lib/use-debounced-value';

const m = messages.userRoles;
const SEARCH_DEBOUNCE_MS = 300;
const COLUMNS = ['Email', 'Função', 'Clínica', 'Status', 'Último Login', 'Ações'] as const;
/** The dashboard's 'Novo Usuário' quick action links to /admin/usuarios?novo=1. */
const NEW_USER_PARAM = 'novo';
/** Every clinic fits in the select: the platform has tens of clinics, not thousands. */
const CLINIC_OPTIONS_PARAMS = { q: '', page: 1, pageSize: PAGE_SIZE_MAX };

type RoleDialogState = { open: false } | { open: true; user: AdminUser | null };

type RowActions = {
  onViewProfile: (user: AdminUser) => void;
  onChangeRole: (user: AdminUser) => void;
  onDeactivate: (user: AdminUser) => void;
};

function UserRow({ user, actions }: { user: AdminUser; actions: RowActions }) {
  return (
    <TableRow>
      <TableCell>
        <div className="font-medium break-all">{user.email}</div>
        {user.fullName ? <div className="text-xs text-muted-foreground">{user.fullName}</div> : null}
      </TableCell>
      {/* A user without a role is 'Desativado': no function to show. */}
      <TableCell>{user.role ? ROLE_LABELS[user.role] : '-'}</TableCell>
      <TableCell>{user.clinicName ?? '-'}</TableCell>
      <TableCell>
        <Badge variant={user.status === 'active' ? 'default' : 'secondary'}>{USER_STATUS_LABELS[user.status]}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : '-'}</TableCell>
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
            <DropdownMenuItem onSelect={() => actions.onChangeRole(user)}>{m.changeRole}</DropdownMenuItem>
            <DropdownMenuSeparator />
            {/* A user without a role is already deactivated. */}
            <DropdownMenuItem variant="destructive" disabled={user.role === null} onSelect={() => actions.onDeactivate(user)}>
              {m.deactivate}
            </DropdownMenuItem>
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
  const searchId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [roleDialog, setRoleDialog] = useState<RoleDialogState>(() =>
    searchParams.get(NEW_USER_PARAM) === '1' ? { open: true, user: null } : { open: false },
  );
  const [profileUserId, setProfileUserId] = useState<string | null>(null);
  const [userToDeactivate, setUserToDeactivate] = useState<AdminUser | null>(null);

  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { data, error, isPending, isFetching, isPlaceholderData } = useUsers({ q, page, pageSize: PAGE_SIZE_DEFAULT });
  // The clinic select is filled only when the dialog is open.
  const clinicsQuery = useQuery({ ...listClinicsQueryOptions(CLINIC_OPTIONS_PARAMS), enabled: roleDialog.open });
  const clinicOptions: ClinicOption[] | undefined = clinicsQuery.data?.items
    .map(({ id, name }) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'));

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
    onDeactivate: (user) => setUserToDeactivate(user),
  };

  function renderRows() {
    if (isPending) return <MessageRow>{messages.common.loading}</MessageRow>;
    if (error) {
      return (
        <MessageRow>
          <span role="alert" className="text-destructive">
            {errorMessage(error)}
          </span>
        </MessageRow>
      );
    }
    if (data.items.length === 0) return <MessageRow>{messages.empty.users}</MessageRow>;
    return data.items.map((user) => <UserRow key={user.id} user={user} actions={rowActions} />);
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

      <div className="relative max-w-sm">
        <Label htmlFor={searchId} className="sr-only">
          {m.searchLabel}
        </Label>
        <SearchIcon aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          id={searchId}
          type="search"
          className="pl-9"
          placeholder={m.searchPlaceholder}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            // A new search starts from its first page.
            setPage(1);
          }}
        />
      </div>

      <Table aria-busy={isFetching}>
        <TableCaption className="sr-only">{m.tableCaption}</TableCaption>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {COLUMNS.map((column) => (
              <TableHead key={column} scope="col">
                {column}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>{renderRows()}</TableBody>
      </Table>

      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />

      <UserRoleDialog
        open={roleDialog.open}
        onOpenChange={(open) => (open ? undefined : closeRoleDialog())}
        user={roleDialog.open ? roleDialog.user : null}
        clinics={clinicOptions}
        clinicsError={clinicsQuery.error ? errorMessage(clinicsQuery.error) : null}
      />
      <UserProfileSheet userId={profileUserId} onClose={() => setProfileUserId(null)} />
      <RemoveRoleDialog user={userToDeactivate} onClose={() => setUserToDeactivate(null)} />
    </>
  );
}
