import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * Masks that follow the typing (issue 23: the card's number, its expiry and the CEP are grouped as they are typed):
 * each takes the digits typed so far and writes them in the printed layout, never adding a separator the next digit
 * has not reached yet, so deleting back over one works.
 */
function grouped(digits: string, sizes: readonly number[], separators: readonly string[]): string {
  let out = '';
  let start = 0;
  sizes.forEach((size, index) => {
    const part = digits.slice(start, start + size);
    if (!part) return;
    if (index > 0) out += separators[index - 1] ?? '';
    out += part;
    start += size;
  });
  return out;
}

/** "4242424242424242" → "4242 4242 4242 4242" (up to 19 digits, as some cards have). */
export function cardNumberAsTyped(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1229" → "12/29": month and year as printed on the card. */
export function cardExpiryAsTyped(value: string): string {
  return grouped(value.replace(/\D/g, '').slice(0, 4), [2, 2], ['/']);
}

/** "01310100" → "01310-100". */
export function cepAsTyped(value: string): string {
  return grouped(value.replace(/\D/g, '').slice(0, 8), [5, 3], ['-']);
}

/** Where the caret goes after masking: after as many digits as were before it in what was typed. */
export function caretAfterDigits(masked: string, digitsBefore: number): number {
  if (digitsBefore === 0) return 0;
  let seen = 0;
  for (let index = 0; index < masked.length; index += 1) {
    if (/\d/.test(masked[index] ?? '')) seen += 1;
    if (seen === digitsBefore) return index + 1;
  }
  return masked.length;
}

/**
 * A react-hook-form registration whose input is masked as it is typed: the value the form receives is the masked one,
 * and the caret stays after the digit just typed.
 */
export function maskedAsTyped(registration: UseFormRegisterReturn, format: (value: string) => string): UseFormRegisterReturn {
  return {
    ...registration,
    onChange: (event) => {
      const input: unknown = event.target;
      if (!(input instanceof HTMLInputElement)) return registration.onChange(event);
      const typed = input.value;
      const caret = input.selectionStart ?? typed.length;
      const digitsBefore = typed.slice(0, caret).replace(/\D/g, '').length;
      const masked = format(typed);
      if (masked !== typed) {
        input.value = masked;
        const position = caretAfterDigits(masked, digitsBefore);
        // Only the focused field moves its caret (an autofill writes fields the person is not in).
        if (document.activeElement === input) input.setSelectionRange(position, position);
      }
      return registration.onChange(event);
    },
  };
}
