import { useId, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';
import { Label } from './label';

type TextFieldProps = ComponentProps<typeof Input> & {
  /** The visible label, tied to the input so it is also the input's accessible name. */
  label: string;
  /** Classes for the wrapper around label and input. */
  wrapperClassName?: string;
};

/** A labelled input: the one way forms in the app render a text control. */
export function TextField({ label, id, wrapperClassName, className, ...props }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div className={cn('grid gap-2', wrapperClassName)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input id={inputId} className={className} {...props} />
    </div>
  );
}
