import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { formatCnpj, formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useId, type ReactNode } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { MoreHorizontalIcon } from 'lucide-react';
import { OnDemandMenu } from '@/components/ui/on-demand-menu';
import { lazyComponent } from '@/lib/lazy-component';
import type { ClinicActions } from './clinic-row-actions';
import { ClinicStatusBadge } from './clinic-status-badge';

const ClinicRowActions = lazyComponent(() => import('./clinic-row-actions'), (m) => m.ClinicRowActions);

const f = messages.adminClinics.fields;
const c = messages.adminClinics.columns;

/**
 * The columns, and the width of the table from which each one has room. The widths are of the table's own container
 * (the sidebar takes part of a tablet's screen), and below them the column's content moves into the first cell, so
 * that 'Clínica' and 'Ações' never scroll out of sight. The classes are written out whole for Tailwind to find them.
 */
const COLUMNS = [
  { id: 'clinic', title: c.clinic, shownFrom: '' },
  { id: 'cnpj', title: f.cnpj, shownFrom: 'hidden @4xl:table-cell' },
  { id: 'domain', title: c.domain, shownFrom: 'hidden @4xl:table-cell' },
  { id: 'status', title: f.status, shownFrom: 'hidden @sm:table-cell' },
  { id: 'plan', title: f.plan, shownFrom: 'hidden @lg:table-cell' },
  { id: 'patients', title: f.patients, shownFrom: 'hidden @2xl:table-cell' },
  { id: 'revenue', title: f.revenue, shownFrom: 'hidden @2xl:table-cell' },
  { id: 'actions', title: c.actions, shownFrom: '' },
] as const;

type ColumnId = (typeof COLUMNS)[number]['id'];

function shownFrom(id: ColumnId): string {
  return COLUMNS.find((column) => column.id === id)?.shownFrom ?? '';
}

function revenueText(clinic: AdminClinic): string {
  return clinic.revenueCents === null ? '-' : formatMoney(clinic.revenueCents);
}

/** The host a clinic's site answers on: its own domain, or `<slug>.<main domain>` — never the bare slug. */
function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

/** The address of the clinic's site as a link: its own domain, or its sub-domain on the platform. */
function ClinicAddress({ clinic }: { clinic: AdminClinic }) {
  return (
    <a href={clinic.url} target="_blank" rel="noreferrer" className="break-all text-primary underline-offset-4 hover:underline">
      {hostOf(clinic.url)}
    </a>
  );
}

/** What the hidden columns hold, under the clinic's name, each line hidden again once its column has room. */
function FoldedColumns({ clinic }: { clinic: AdminClinic }) {
  return (
    // From @4xl every column has room, so nothing is folded.
    <div className="mt-1 grid justify-items-start gap-1 text-xs text-muted-foreground @4xl:hidden">
      <span className="tabular-nums">{formatCnpj(clinic.cnpj)}</span>
      <span>
        <ClinicAddress clinic={clinic} />
      </span>
      <span className="@sm:hidden">
        <ClinicStatusBadge status={clinic.status} />
      </span>
      <span className="@lg:hidden">
        {f.plan}: {clinic.planName ?? '-'}
      </span>
      <span className="tabular-nums @2xl:hidden">
        {f.patients}: {clinic.patientCount} · {f.revenue}: {revenueText(clinic)}
      </span>
    </div>
  );
}

function ClinicRow({ clinic, actions }: { clinic: AdminClinic; actions: ClinicActions }) {
  return (
    <TableRow>
      <TableCell>
        <div className="font-medium">{clinic.name}</div>
        <div className="text-xs text-muted-foreground">{formatMessage(messages.clinics.createdOn, { date: formatDate(clinic.createdAt) })}</div>
        <FoldedColumns clinic={clinic} />
      </TableCell>
      <TableCell className={cn('whitespace-nowrap tabular-nums', shownFrom('cnpj'))}>{formatCnpj(clinic.cnpj)}</TableCell>
      <TableCell className={shownFrom('domain')}>
        <ClinicAddress clinic={clinic} />
      </TableCell>
      <TableCell className={shownFrom('status')}>
        <ClinicStatusBadge status={clinic.status} />
      </TableCell>
      <TableCell className={shownFrom('plan')}>{clinic.planName ?? '-'}</TableCell>
      <TableCell className={cn('tabular-nums', shownFrom('patients'))}>{clinic.patientCount}</TableCell>
      <TableCell className={cn('whitespace-nowrap tabular-nums', shownFrom('revenue'))}>{revenueText(clinic)}</TableCell>
      <TableCell className="w-12 text-right">
        <OnDemandMenu label={formatMessage(messages.adminClinics.rowActions, { name: clinic.name })} icon={<MoreHorizontalIcon aria-hidden="true" />}>
          <ClinicRowActions clinic={clinic} {...actions} defaultOpen />
        </OnDemandMenu>
      </TableCell>
    </TableRow>
  );
}

/** One row across the whole table, for the loading, empty and error states. */
function MessageRow({ children }: { children: ReactNode }) {
  return <TableMessageRow colSpan={COLUMNS.length}>{children}</TableMessageRow>;
}

type ClinicsTableProps = {
  clinics: AdminClinic[] | undefined;
  error: Error | null;
  /** Asks for the list again ('Tentar novamente'). */
  onRetry: () => void;
  /** A newer answer is on its way (the rows shown are the previous one's). */
  busy: boolean;
  actions: ClinicActions;
};

/** The clinic table of /admin/clinicas (specification §2). */
export function ClinicsTable({ clinics, error, onRetry, busy, actions }: ClinicsTableProps) {
  const revenueHelpId = useId();
  function renderRows() {
    if (error) {
      return (
        <MessageRow>
          <ErrorState variant="inline" error={error} onRetry={onRetry} retrying={busy} />
        </MessageRow>
      );
    }
    if (!clinics) return <MessageRow>{messages.common.loading}</MessageRow>;
    if (clinics.length === 0) return <MessageRow>{messages.empty.clinics}</MessageRow>;
    return clinics.map((clinic) => <ClinicRow key={clinic.id} clinic={clinic} actions={actions} />);
  }

  return (
    <div className="@container">
      <Table aria-busy={busy} aria-describedby={revenueHelpId}>
        <TableCaption className="sr-only">{messages.clinics.tableCaption}</TableCaption>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {COLUMNS.map((column) => (
              <TableHead key={column.id} scope="col" className={cn(column.shownFrom, column.id === 'actions' && 'text-right')}>
                {column.title}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>{renderRows()}</TableBody>
      </Table>
      {/* Not the platform's MRR (Dashboard, Planos): what each clinic's patients paid, said once under the table. */}
      <p id={revenueHelpId} className="mt-2 text-xs text-muted-foreground">
        {f.revenueHelp}
      </p>
    </div>
  );
}
