import type { ComponentProps, ReactNode } from 'react';
import { FormField } from './form-field';
import { Input } from './input';

type TextFieldProps = ComponentProps<typeof Input> & {
  /** The visible label, tied to the input so it is also the input's accessible name. */
  label: string;
  /** Help under the input (a hint, a live preview), announced with it. */
  description?: ReactNode;
  /** The field's validation message: shown under it, announced with it, and the input marked invalid. */
  error?: string;
  /** Classes for the wrapper around label and input. */
  wrapperClassName?: string;
};

/** A labelled input: the one way forms in the app render a text control (a `FormField` holding an `Input`). */
export function TextField({ label, description, error, id, wrapperClassName, ...props }: TextFieldProps) {
  return (
    <FormField label={label} description={description} error={error} id={id} className={wrapperClassName}>
      {(control) => (
        <Input
          {...props}
          id={control.id}
          aria-invalid={control['aria-invalid'] ?? props['aria-invalid']}
          aria-describedby={[props['aria-describedby'], control['aria-describedby']].filter(Boolean).join(' ') || undefined}
        />
      )}
    </FormField>
  );
}
