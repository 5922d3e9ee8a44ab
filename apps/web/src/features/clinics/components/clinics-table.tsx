import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { formatCnpj, formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/error-message';
import { ClinicRowActions, type ClinicActions } from './clinic-row-actions';
import { ClinicStatusBadge } from './clinic-status-badge';

const COLUMNS = ['Clínica', 'CNPJ', 'Domínio', 'Status', 'Plano', 'Pacientes', 'Receita', 'Ações'] as const;

/** The clinic's own domain as a link; otherwise its sub-domain on the platform. */
function ClinicAddress({ clinic }: { clinic: AdminClinic }) {
  if (!clinic.domain) return <>{clinic.slug}</>;
  return (
    <a href={`https://${clinic.domain}`} target="_blank" rel="noreferrer" className="text-primary underline-offset-4 hover:underline">
      {clinic.domain}
    </a>
  );
}

function ClinicRow({ clinic, actions }: { clinic: AdminClinic; actions: ClinicActions }) {
  return (
    <TableRow>
      <TableCell>
        <div className="font-medium">{clinic.name}</div>
        <div className="text-xs text-muted-foreground">{formatMessage(messages.clinics.createdOn, { date: formatDate(clinic.createdAt) })}</div>
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">{formatCnpj(clinic.cnpj)}</TableCell>
      <TableCell>
        <ClinicAddress clinic={clinic} />
      </TableCell>
      <TableCell>
        <ClinicStatusBadge status={clinic.status} />
      </TableCell>
      <TableCell>{clinic.planName ?? '-'}</TableCell>
      <TableCell className="tabular-nums">{clinic.patientCount}</TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">{clinic.revenueCents === null ? '-' : formatMoney(clinic.revenueCents)}</TableCell>
      <TableCell className="w-12 text-right">
        <ClinicRowActions clinic={clinic} {...actions} />
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
  /** A newer answer is on its way (the rows shown are the previous one's). */
  busy: boolean;
  actions: ClinicActions;
};

/** The clinic table of /admin/clinicas (specification §2). */
export function ClinicsTable({ clinics, error, busy, actions }: ClinicsTableProps) {
  function renderRows() {
    if (error) {
      return (
        <MessageRow>
          <span role="alert" className="text-destructive">
            {errorMessage(error)}
          </span>
        </MessageRow>
      );
    }
    if (!clinics) return <MessageRow>{messages.common.loading}</MessageRow>;
    if (clinics.length === 0) return <MessageRow>{messages.empty.clinics}</MessageRow>;
    return clinics.map((clinic) => <ClinicRow key={clinic.id} clinic={clinic} actions={actions} />);
  }

  return (
    <Table aria-busy={busy}>
      <TableCaption className="sr-only">{messages.clinics.tableCaption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((column) => (
            <TableHead key={column} scope="col" className={column === 'Ações' ? 'text-right' : undefined}>
              {column}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>{renderRows()}</TableBody>
    </Table>
  );
}
