import type { FieldErrors, FieldValues } from 'react-hook-form';
import { showValidationToast } from '@/lib/toasts';
import { firstFormError } from './first-form-error';

/**
 * Specification §5: the first validation error goes in a toast titled "Erro de validação" — one at a time, replaced by
 * the next and dismissed once the form is valid (`useDismissValidationToastWhenValid`).
 */
export function toastFirstValidationError<T extends FieldValues>(errors: FieldErrors<T>, fieldOrder: readonly (keyof T & string)[]): void {
  const description = firstFormError(errors, fieldOrder);
  if (description) showValidationToast(description);
}
