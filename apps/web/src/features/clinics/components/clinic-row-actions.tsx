import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { EyeIcon, MoreHorizontalIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';

export type ClinicActions = {
  onView: (clinic: AdminClinic) => void;
  onEdit: (clinic: AdminClinic) => void;
  onDelete: (clinic: AdminClinic) => void;
};

/** The row menu of the clinic table: Visualizar, Editar, Excluir (specification §2). Loaded on first use (clinics-table.tsx). */
export function ClinicRowActions({ clinic, onView, onEdit, onDelete, defaultOpen = false }: ClinicActions & { clinic: AdminClinic; defaultOpen?: boolean }) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={formatMessage(messages.adminClinics.rowActions, { name: clinic.name })}>
          <MoreHorizontalIcon aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => onView(clinic)}>
          <EyeIcon aria-hidden="true" />
          {messages.adminClinics.view}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onEdit(clinic)}>
          <PencilIcon aria-hidden="true" />
          {messages.adminClinics.edit}
        </DropdownMenuItem>
        <DropdownMenuItem variant="destructive" onSelect={() => onDelete(clinic)}>
          <Trash2Icon aria-hidden="true" />
          {messages.common.delete}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
