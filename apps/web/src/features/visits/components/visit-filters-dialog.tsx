import { VISIT_STATUS_LABELS, VISIT_STATUSES } from '@carteirinha/shared/contracts/visits';
import { messages } from '@carteirinha/shared/messages';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { useServices } from '@/features/services/api/list-services';
import type { VisitFilters } from '../api/list-visits';
import { useVisitRegistrars } from '../api/get-visit-registrars';
import { checkFilters, EMPTY_FILTER_FORM, formOf, type VisitFilterForm } from '../lib/visit-filters';

const v = messages.visitsScreen;

type VisitFiltersDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  filters: VisitFilters;
  onApply: (filters: VisitFilters) => void;
};

type ListFilterSelectProps = {
  label: string;
  anyLabel: string;
  value: string;
  onChange: (value: string) => void;
  /** The query that fills the options: until it has data the select waits, and if it fails it says so below. */
  list: Parameters<typeof retryPropsOf>[0] & { isPending: boolean; isError: boolean };
  options: Array<{ value: string; label: string }>;
};

/**
 * A filter picked from a list the server sends (services, the team). Until the list comes the select is disabled and
 * says "Carregando...", keeping the chosen id: an empty select would show "any" for a filter that is still applied.
 * For the same reason a chosen id the list lacks (it failed, or no longer names it) stays, as "Opção escolhida".
 */
function ListFilterSelect({ label, anyLabel, value, onChange, list, options }: ListFilterSelectProps) {
  return (
    <>
      <FormField label={label}>
        {(field) =>
          list.isPending ? (
            <NativeSelect {...field} value={value} disabled aria-busy="true" onChange={() => undefined}>
              <option value={value}>{messages.common.loading}</option>
            </NativeSelect>
          ) : (
            <NativeSelect {...field} value={value} onChange={(event) => onChange(event.target.value)}>
              <option value="">{anyLabel}</option>
              {value && !options.some((option) => option.value === value) ? <option value={value}>{v.chosenOption}</option> : null}
              {options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          )
        }
      </FormField>
      {list.isError ? <ErrorState variant="inline" {...retryPropsOf(list)} className="items-start text-left" /> : null}
    </>
  );
}

function FiltersForm({ filters, onApply, onClose }: { filters: VisitFilters; onApply: (filters: VisitFilters) => void; onClose: () => void }) {
  const [form, setForm] = useState<VisitFilterForm>(() => formOf(filters));
  const [error, setError] = useState<{ field: keyof VisitFilterForm; message: string } | null>(null);
  const services = useServices();
  const registrars = useVisitRegistrars();
  const set = (field: keyof VisitFilterForm) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const errorOf = (field: keyof VisitFilterForm) => (error?.field === field ? error.message : undefined);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const checked = checkFilters(form);
    if (!checked.ok) {
      setError({ field: checked.field, message: checked.message });
      return;
    }
    onApply(checked.filters);
    onClose();
  }

  function clear() {
    setForm(EMPTY_FILTER_FORM);
    onApply({});
    onClose();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField type="date" label={v.periodFrom} value={form.from} onChange={(event) => set('from')(event.target.value)} error={errorOf('from')} />
        <TextField type="date" label={v.periodTo} value={form.to} onChange={(event) => set('to')(event.target.value)} error={errorOf('to')} />
      </div>
      <FormField label={v.statusLabel}>
        {(field) => (
          <NativeSelect {...field} value={form.status} onChange={(event) => set('status')(event.target.value)}>
            <option value="">{v.anyStatus}</option>
            {VISIT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {VISIT_STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <ListFilterSelect
        label={v.serviceLabel}
        anyLabel={v.anyService}
        value={form.serviceId}
        onChange={set('serviceId')}
        list={services}
        options={(services.data ?? []).map((service) => ({ value: service.id, label: service.name }))}
      />
      <ListFilterSelect
        label={v.registeredByLabel}
        anyLabel={v.anyone}
        value={form.registeredBy}
        onChange={set('registeredBy')}
        list={registrars}
        options={(registrars.data?.items ?? []).map((member) => ({ value: member.userId, label: member.name }))}
      />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={clear}>
          {v.clear}
        </Button>
        <Button type="submit">{v.apply}</Button>
      </DialogFooter>
    </form>
  );
}

/** 'Filtros' of Atendimentos: period, status, service and who registered; they hold for the list and for 'Exportar'. */
export function VisitFiltersDialog({ open, onOpenChange, filters, onApply }: VisitFiltersDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{v.filtersTitle}</DialogTitle>
          <DialogDescription>{v.filtersDescription}</DialogDescription>
        </DialogHeader>
        {open ? <FiltersForm filters={filters} onApply={onApply} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
