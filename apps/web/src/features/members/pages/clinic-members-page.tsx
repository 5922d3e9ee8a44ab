import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { MEMBER_STATUS_FILTERS, type Member, type MemberStatusFilter } from '@carteirinha/shared/contracts/members';
import { SUBSCRIPTION_STATUS_LABELS } from '@carteirinha/shared/contracts/subscriptions';
import { formatCpf, formatDate } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { useState } from 'react';
import { UploadIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { groupCardNumber } from '@/features/cards/lib/card-format';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { usePageCursors } from '@/lib/use-page-cursor';
import { useMembers } from '../api/members';
import { MemberStatusBadge } from '../components/member-status-badge';

const m = messages.members;
const c = m.columns;
/** Below this width of the list's own container each member is a card with every value and the detail link. */
const CARDS_BELOW_PX = 760;

function statusLabel(status: MemberStatusFilter): string {
  return status === 'none' ? m.noSubscription : SUBSCRIPTION_STATUS_LABELS[status];
}

const COLUMNS: DataColumn<Member>[] = [
  {
    id: 'name',
    header: c.name,
    cell: (member) => (
      <div className="min-w-0">
        <div className="truncate font-medium">{member.fullName}</div>
        <div className="truncate text-xs text-muted-foreground">{member.email}</div>
      </div>
    ),
    className: 'max-w-0 w-full md:w-auto md:max-w-none',
  },
  { id: 'cpf', header: c.cpf, cell: (member) => (member.cpf ? formatCpf(member.cpf) : '-'), className: 'whitespace-nowrap tabular-nums' },
  { id: 'plan', header: c.plan, cell: (member) => member.subscription?.planName ?? '-' },
  { id: 'status', header: c.status, cell: (member) => <MemberStatusBadge member={member} /> },
  { id: 'card', header: c.card, cell: (member) => (member.cardNumber ? groupCardNumber(member.cardNumber) : '-'), className: 'whitespace-nowrap tabular-nums' },
  { id: 'dependents', header: c.dependents, cell: (member) => String(member.dependents), className: 'tabular-nums' },
  { id: 'joined', header: c.joined, cell: (member) => formatDate(member.joinedAt), className: 'whitespace-nowrap tabular-nums' },
  {
    id: 'actions',
    header: c.actions,
    cell: (member) => (
      <Link className="text-sm font-medium text-primary underline-offset-4 hover:underline" to={`/clinica/pacientes/${member.userId}`} aria-label={`${m.view}: ${member.fullName}`}>
        {m.view}
      </Link>
    ),
  },
];

/** Pacientes (issue 26): the programme's members, searched and filtered on the server, newest first. */
export function ClinicMembersPage() {
  const { search, setSearch, q, page, setPage } = useListSearch();
  const [status, setStatus] = useState<MemberStatusFilter | ''>('');
  const cursors = usePageCursors(`${q}|${status}`);
  const members = useMembers({ q, status, page, pageSize: PAGE_SIZE_DEFAULT, after: cursors.after(page) });
  const { data, error, isPending, isFetching, isPlaceholderData } = members;
  cursors.remember(data, isPlaceholderData);
  useClampedPage(page, setPage, data);
  const filtered = q !== '' || status !== '';

  return (
    <>
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          <Button asChild>
            <Link to="/clinica/pacientes/importar">
              <UploadIcon aria-hidden="true" />
              {messages.memberImport.open}
            </Link>
          </Button>
        }
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <ListSearchBox label={m.searchLabel} placeholder={m.searchPlaceholder} value={search} onChange={setSearch} />
        </div>
        <div className="grid gap-1.5 sm:w-56">
          <Label htmlFor="members-status">{m.statusFilter}</Label>
          <NativeSelect
            id="members-status"
            value={status}
            onChange={(event) => {
              setStatus(MEMBER_STATUS_FILTERS.find((value) => value === event.target.value) ?? '');
              setPage(1);
            }}
          >
            <option value="">{m.allStatuses}</option>
            {MEMBER_STATUS_FILTERS.map((value) => (
              <option key={value} value={value}>
                {statusLabel(value)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <DataTable
        rows={data?.items}
        rowKey={(member) => member.userId}
        columns={COLUMNS}
        titleColumn="name"
        actionsColumn="actions"
        caption={m.title}
        placeholder={
          isPending
            ? messages.common.loading
            : rowsPlaceholder({ rows: data?.items, error, onRetry: () => void members.refetch(), retrying: isFetching, emptyText: filtered ? m.emptySearch : m.empty })
        }
        cardsBelow={CARDS_BELOW_PX}
        busy={isFetching}
      />
      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />
    </>
  );
}
