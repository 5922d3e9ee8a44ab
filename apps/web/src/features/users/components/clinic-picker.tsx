import { formatCnpj } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { useId, useState, type KeyboardEvent } from 'react';
import type { FieldControlProps } from '@/components/ui/form-field';
import { SearchInput } from '@/components/ui/search-input';
import { errorMessage } from '@/lib/error-message';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';
import { useClinicSearch, type ClinicOption } from '../api/search-clinics';

/** A chosen clinic as the picker shows it: the user's current one comes from the user row, not from a search. */
export type ChosenClinic = { id: string; name: string };

type ClinicPickerProps = FieldControlProps & {
  /** The chosen clinic; null while none is. */
  value: ChosenClinic | null;
  onChange: (clinic: ChosenClinic | null) => void;
  onBlur?: () => void;
};

/** The current choice first when the list is unfiltered, so an edit always shows where the user is now. */
function withCurrent(options: readonly ClinicOption[], current: ChosenClinic | null, unfiltered: boolean): readonly (ClinicOption | ChosenClinic)[] {
  if (!current || !unfiltered || options.some((option) => option.id === current.id)) return options;
  return [current, ...options];
}

/**
 * The clinic of a role, searched on the server ('?q=', name or CNPJ) as the admin types: the platform has hundreds of
 * clinics, more than one page could list. An ARIA 1.2 combobox: the input filters, Up/Down move through the list,
 * Enter chooses, Escape closes it. Typing after a choice drops it, so what the field shows is what will be saved.
 */
export function ClinicPicker({ value, onChange, onBlur, id, ...aria }: ClinicPickerProps) {
  const listId = useId();
  const statusId = useId();
  const [text, setText] = useState(value?.name ?? '');
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);

  // The chosen clinic's own name asks for no filter: opening the list shows the clinics, the current one first.
  const typed = value && text === value.name ? '' : text.trim();
  const q = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const { data, error, isFetching } = useClinicSearch(q, open);
  const options = withCurrent(data ?? [], value, q === '');
  const active = open ? options[activeIndex] : undefined;

  function choose(clinic: ChosenClinic) {
    onChange({ id: clinic.id, name: clinic.name });
    setText(clinic.name);
    setOpen(false);
    setActiveIndex(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveIndex((index) => (options.length === 0 ? -1 : (index + step + options.length) % options.length));
      return;
    }
    if (event.key === 'Enter' && open) {
      // Enter chooses in the list; it must not submit the dialog's form.
      event.preventDefault();
      if (active) choose(active);
      return;
    }
    if (event.key === 'Escape' && open) setOpen(false);
  }

  function status(): string | null {
    if (error) return errorMessage(error);
    if (data === undefined || isFetching) return messages.common.loading;
    if (options.length === 0) return messages.empty.clinics;
    return null;
  }

  return (
    <div className="grid gap-1">
      <SearchInput
        {...aria}
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active ? `${listId}-${active.id}` : undefined}
        // The field's error (from FormField) and, while the list is open, its status ('Carregando...', none found).
        aria-describedby={[aria['aria-describedby'], open ? statusId : undefined].filter(Boolean).join(' ') || undefined}
        autoComplete="off"
        placeholder={messages.adminUsers.clinicSearchPlaceholder}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActiveIndex(-1);
          if (value) onChange(null);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          onBlur?.();
        }}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <>
          <p id={statusId} role="status" className="text-sm text-muted-foreground empty:hidden">
            {status()}
          </p>
          <ul id={listId} role="listbox" aria-label={messages.userRoles.clinicLabel} className="max-h-56 overflow-y-auto rounded-md border bg-popover p-1 shadow-sm empty:hidden">
            {options.map((clinic, index) => (
              <li
                key={clinic.id}
                id={`${listId}-${clinic.id}`}
                role="option"
                aria-selected={clinic.id === value?.id}
                className={cn(
                  'cursor-pointer rounded-sm px-2 py-1.5 text-sm',
                  index === activeIndex && 'bg-accent text-accent-foreground',
                  clinic.id === value?.id && 'font-medium',
                )}
                // Chosen on mouse down, before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(clinic);
                }}
              >
                {clinic.name}
                {'cnpj' in clinic ? <span className="ml-2 text-xs text-muted-foreground">{formatCnpj(clinic.cnpj)}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
