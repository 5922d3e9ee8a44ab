import { useState } from 'react';
import { SubmitKeys } from './submit-keys';

/** The idempotency keys of one form (one mutation hook): kept for as long as the form is on screen. */
export function useSubmitKeys(): SubmitKeys {
  const [keys] = useState(() => new SubmitKeys());
  return keys;
}
