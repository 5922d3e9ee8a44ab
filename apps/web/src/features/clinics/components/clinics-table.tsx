import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { formatCnpj, formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { MoreHorizontalIcon } from 'lucide-react';
import { useId } from 'react';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { OnDemandMenu } from '@/components/ui/on-demand-menu';
import { lazyComponent } from '@/lib/lazy-component';
import type { ClinicActions } from './clinic-row-actions';
import { ClinicStatusBadge } from './clinic-status-badge';

// The row menu's code loads the first time a menu is opened (issue 24's admin budget).
const ClinicRowActions = lazyComponent(() => import('./clinic-row-actions'), (m) => m.ClinicRowActions);

const f = messages.adminClinics.fields;
const c = messages.adminClinics.columns;

/** Below this width of the list's own container the eight columns have no room, and each clinic is a card. */
const CARDS_BELOW_PX = 896;

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

function ClinicName({ clinic }: { clinic: AdminClinic }) {
  return (
    <>
      <div className="font-medium">{clinic.name}</div>
      <div className="text-xs font-normal text-muted-foreground">{formatMessage(messages.clinics.createdOn, { date: formatDate(clinic.createdAt) })}</div>
    </>
  );
}

function columnsFor(actions: ClinicActions): DataColumn<AdminClinic>[] {
  return [
    { id: 'clinic', header: c.clinic, cell: (clinic) => <ClinicName clinic={clinic} /> },
    { id: 'cnpj', header: f.cnpj, cell: (clinic) => formatCnpj(clinic.cnpj), className: 'whitespace-nowrap tabular-nums' },
    { id: 'domain', header: c.domain, cell: (clinic) => <ClinicAddress clinic={clinic} /> },
    { id: 'status', header: f.status, cell: (clinic) => <ClinicStatusBadge status={clinic.status} /> },
    { id: 'plan', header: f.plan, cell: (clinic) => clinic.planName ?? '-' },
    { id: 'patients', header: f.patients, cell: (clinic) => clinic.patientCount, className: 'tabular-nums' },
    { id: 'revenue', header: f.revenue, cell: revenueText, className: 'whitespace-nowrap tabular-nums' },
    {
      id: 'actions',
      header: c.actions,
      cell: (clinic) => (
        <OnDemandMenu label={formatMessage(messages.adminClinics.rowActions, { name: clinic.name })} icon={<MoreHorizontalIcon aria-hidden="true" />}>
          <ClinicRowActions clinic={clinic} {...actions} defaultOpen />
        </OnDemandMenu>
      ),
      align: 'right',
      className: 'w-12',
    },
  ];
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

/**
 * The clinic table of /admin/clinicas (specification §2): a table where its eight columns have room, and below that
 * one card per clinic with every value and its actions (issue 23: one pattern for every list).
 */
export function ClinicsTable({ clinics, error, onRetry, busy, actions }: ClinicsTableProps) {
  const revenueHelpId = useId();
  return (
    <div>
      <DataTable
        rows={clinics}
        rowKey={(clinic) => clinic.id}
        columns={columnsFor(actions)}
        titleColumn="clinic"
        actionsColumn="actions"
        caption={messages.clinics.tableCaption}
        placeholder={rowsPlaceholder({ rows: clinics, error, onRetry, retrying: busy, emptyText: messages.empty.clinics })}
        cardsBelow={CARDS_BELOW_PX}
        busy={busy}
        describedBy={revenueHelpId}
      />
      {/* Not the platform's MRR (Dashboard, Planos): what each clinic's patients paid, said once under the table. */}
      <p id={revenueHelpId} className="mt-2 text-xs text-muted-foreground">
        {f.revenueHelp}
      </p>
    </div>
  );
}
