import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';
import { Label } from './label';

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

/** A labelled input: the one way forms in the app render a text control. */
export function TextField({ label, description, error, id, wrapperClassName, className, ...props }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const descriptionId = description ? `${inputId}-description` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [props['aria-describedby'], descriptionId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid gap-2', wrapperClassName)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input
        id={inputId}
        className={className}
        {...props}
        aria-invalid={error ? true : props['aria-invalid']}
        aria-describedby={describedBy}
      />
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
