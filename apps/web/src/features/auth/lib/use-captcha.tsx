import { CAPTCHA_HEADER } from '@carteirinha/shared/contracts/captcha';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTenant } from '@/features/tenancy/api/get-tenant';
import { CaptchaField } from '../components/captcha-field';

/** How long a submission waits for the background proof of work before it goes without it (the server then says). */
const WAIT_MS = 30_000;

export type Captcha = {
  /** The field to render in the form (nothing when the site has the captcha off, or it is not asked yet). */
  field: ReactNode;
  /** The headers of one submission: waits for the proof of work if it is still running. */
  headersForSubmit: () => Promise<Record<string, string> | undefined>;
  /** A payload serves once: after each submission the form asks for the next one. */
  renew: () => void;
};

/** Whether an auth answer is our CAPTCHA_FAILED (a sign-in asked for it, or it expired). */
export function isCaptchaRefusal(error: unknown): boolean {
  return errorResponseSchema.safeParse(error).data?.error.code === 'CAPTCHA_FAILED';
}

/**
 * The captcha of a form (ADR 029), when the site has it on and `active` (sign-up and reset always; a sign-in after a
 * failure). It solves itself while the person fills the form.
 */
export function useCaptcha(active = true): Captcha {
  const enabled = useTenant().data?.captcha === true && active;
  const payload = useRef<string | null>(null);
  const waiting = useRef<Array<(value: string | null) => void>>([]);
  const [round, setRound] = useState(0);

  const onChange = useCallback((value: string | null) => {
    payload.current = value;
    if (value === null) return;
    for (const resolve of waiting.current.splice(0)) resolve(value);
  }, []);

  const headersForSubmit = useCallback(async () => {
    if (!enabled) return undefined;
    const ready =
      payload.current ??
      (await new Promise<string | null>((resolve) => {
        waiting.current.push(resolve);
        window.setTimeout(() => resolve(null), WAIT_MS);
      }));
    return ready ? { [CAPTCHA_HEADER]: ready } : undefined;
  }, [enabled]);

  const renew = useCallback(() => {
    payload.current = null;
    setRound((value) => value + 1);
  }, []);

  return { field: enabled ? <CaptchaField key={round} onChange={onChange} /> : null, headersForSubmit, renew };
}
