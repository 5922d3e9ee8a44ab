import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Label } from './label';

/** What a control needs to be tied to its label, hint and error. Spread it on the input, select or textarea. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type FormFieldProps = {
  label: string;
  /** The validation message; shown under the control and read with it. */
  error?: string;
  /** A hint under the control, read with it too. */
  description?: ReactNode;
  /** The control's id; one is made up when not given. */
  id?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * A label, a control and its error message, wired for assistive technology: the label names the control, and the
 * hint and the error describe it (aria-describedby), so a screen reader reads why a value was rejected. For a plain
 * text input, `TextField` is shorter.
 */
export function FormField({ label, error, description, id, className, children }: FormFieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div data-slot="form-field" className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {children({ id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {description ? (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} data-slot="field-error" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
