import { messages } from '@carteirinha/shared/messages';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { toast } from 'sonner';
import { firstFormError } from './first-form-error';

/** Specification §5: the first validation error goes in a toast titled "Erro de validação". */
export function toastFirstValidationError<T extends FieldValues>(errors: FieldErrors<T>, fieldOrder: readonly (keyof T & string)[]): void {
  const description = firstFormError(errors, fieldOrder);
  if (description) toast.error(messages.validation.title, { description });
}
