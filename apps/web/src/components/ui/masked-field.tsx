import { formatCep, formatCnpj, formatCpf, formatPhone } from '@carteirinha/shared/format';
import type { ComponentProps } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { TextField } from './text-field';

/** The Brazilian numbers the app asks for. */
export type MaskKind = 'cpf' | 'cnpj' | 'cpfCnpj' | 'phone' | 'cep';

type MaskSpec = {
  format: (value: string) => string;
  placeholder: string;
  inputMode: 'numeric' | 'tel' | 'text';
  type: 'text' | 'tel';
  autoComplete: string;
};

function formatCpfOrCnpj(value: string): string {
  return value.replace(/[^0-9a-zA-Z]/g, '').length === 14 ? formatCnpj(value) : formatCpf(value);
}

const MASKS: Record<MaskKind, MaskSpec> = {
  cpf: { format: formatCpf, placeholder: '000.000.000-00', inputMode: 'numeric', type: 'text', autoComplete: 'off' },
  // Letters too: the alphanumeric CNPJ of IN RFB 2.229/2024.
  cnpj: { format: formatCnpj, placeholder: '00.000.000/0000-00', inputMode: 'text', type: 'text', autoComplete: 'off' },
  // Either, told apart by length (a payer at checkout may be a person or a company).
  cpfCnpj: { format: formatCpfOrCnpj, placeholder: '000.000.000-00', inputMode: 'text', type: 'text', autoComplete: 'off' },
  phone: { format: formatPhone, placeholder: '(11) 98765-4321', inputMode: 'tel', type: 'tel', autoComplete: 'tel' },
  cep: { format: formatCep, placeholder: '00000-000', inputMode: 'numeric', type: 'text', autoComplete: 'postal-code' },
};

/** The mask a value is shown with, e.g. for the default values of a form: "11987654321" → "(11) 98765-4321". */
export function maskValue(kind: MaskKind, value: string | null | undefined): string {
  return value ? MASKS[kind].format(value) : '';
}

type MaskedFieldProps<T extends FieldValues, TOutput extends FieldValues> = Omit<
  ComponentProps<typeof TextField>,
  'name' | 'value' | 'onChange' | 'onBlur' | 'type' | 'inputMode'
> & {
  /** The form's control; a form whose schema reshapes its values on submit (a transform) fits too. */
  control: Control<T, unknown, TOutput>;
  name: FieldPath<T>;
  kind: MaskKind;
};

/**
 * The one input for a CPF, CNPJ, phone or CEP: typed freely, masked when the field is left (the same moment in every
 * form, so the caret never jumps while typing), validated by the shared schema of `packages/shared/src/validators.ts`
 * that also stores it normalised (digits only). A value of the wrong length keeps what was typed, for its error.
 */
export function MaskedField<T extends FieldValues, TOutput extends FieldValues = T>({
  control,
  name,
  kind,
  placeholder,
  autoComplete,
  ...props
}: MaskedFieldProps<T, TOutput>) {
  const mask = MASKS[kind];
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          {...props}
          ref={field.ref}
          name={field.name}
          type={mask.type}
          inputMode={mask.inputMode}
          placeholder={placeholder ?? mask.placeholder}
          autoComplete={autoComplete ?? mask.autoComplete}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(event) => field.onChange(event.target.value)}
          onBlur={() => {
            const typed = typeof field.value === 'string' ? field.value : '';
            const masked = mask.format(typed.trim());
            if (masked !== typed) field.onChange(masked);
            field.onBlur();
          }}
        />
      )}
    />
  );
}
