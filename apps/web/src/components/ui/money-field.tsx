import type { ComponentProps } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { formatTypedReais } from '@/lib/reais';
import { TextField } from './text-field';

type MoneyFieldProps<T extends FieldValues, TOutput extends FieldValues> = Omit<
  ComponentProps<typeof TextField>,
  'name' | 'value' | 'onChange' | 'onBlur' | 'type' | 'inputMode'
> & {
  control: Control<T, unknown, TOutput>;
  name: FieldPath<T>;
};

/**
 * An amount in reais, typed the pt-BR way ("89,90", "1.234,56", as the admin's plan price): the field holds the text,
 * shown with two decimals when it is left (the caret never jumps while typing); the form's schema turns it into
 * cents (`parseReais`). Its label says the currency, e.g. "Preço (R$)".
 */
export function MoneyField<T extends FieldValues, TOutput extends FieldValues = T>({ control, name, className, ...props }: MoneyFieldProps<T, TOutput>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
            {...props}
            ref={field.ref}
            name={field.name}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder={props.placeholder ?? '0,00'}
            className={className}
            value={typeof field.value === 'string' ? field.value : ''}
            onChange={(event) => field.onChange(event.target.value)}
            onBlur={() => {
              const typed = typeof field.value === 'string' ? field.value : '';
              const formatted = typed.trim() === '' ? '' : formatTypedReais(typed);
              if (formatted !== typed) field.onChange(formatted);
              field.onBlur();
            }}
          />
      )}
    />
  );
}
