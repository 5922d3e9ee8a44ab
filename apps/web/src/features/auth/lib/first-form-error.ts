import type { FieldErrors, FieldValues } from 'react-hook-form';

/**
 * The message of the first invalid field in the form's visual order (specification §5: the first validation error
 * is the one shown), or null when there is none.
 */
export function firstFormError<T extends FieldValues>(errors: FieldErrors<T>, fieldOrder: readonly (keyof T & string)[]): string | null {
  for (const field of fieldOrder) {
    const message = errors[field]?.message;
    if (typeof message === 'string' && message.length > 0) return message;
  }
  return null;
}
