import { messages } from '@carteirinha/shared/messages';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import type { createCaptchaWidget } from '../lib/captcha-widget';

const t = messages.captcha;

/** What the widget tells on every change: its state and, once solved, the payload the server checks. */
const stateChangeSchema = z.object({ state: z.string(), payload: z.string().nullish() });

type Status = 'working' | 'done' | 'failed';

type CaptchaFieldProps = {
  /** The solved payload (sent in the `x-captcha` header), or null while it is being solved. */
  onChange: (payload: string | null) => void;
};

/**
 * The proof of work of a form anyone may post (ADR 029): it starts as the form appears and solves itself while the
 * person types. Nothing to tick and nothing to solve; a line of text, read by screen readers, says when it is done.
 * Each payload serves one submission: the form remounts this field (a new `key`) to get the next one.
 */
export function CaptchaField({ onChange }: CaptchaFieldProps) {
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('working');

  useEffect(() => {
    let widget: ReturnType<typeof createCaptchaWidget> | null = null;
    let cancelled = false;
    const onStateChange = (event: Event) => {
      const detail = event instanceof CustomEvent ? stateChangeSchema.safeParse(event.detail) : null;
      if (!detail?.success) return;
      const { state, payload } = detail.data;
      if (state === 'verified' && payload) {
        setStatus('done');
        onChange(payload);
      } else if (state === 'error' || state === 'expired') {
        setStatus('failed');
        onChange(null);
        // An expired or failed challenge is replaced by a fresh one, solved again in the background.
        window.setTimeout(() => {
          widget?.reset();
          void widget?.verify();
        }, 1000);
      } else {
        setStatus('working');
        onChange(null);
      }
    };
    void import('../lib/captcha-widget').then((module) => {
      if (cancelled || !host.current) return;
      widget = module.createCaptchaWidget();
      widget.addEventListener('statechange', onStateChange);
      host.current.append(widget);
    });
    return () => {
      cancelled = true;
      widget?.removeEventListener('statechange', onStateChange);
      widget?.remove();
    };
  }, [onChange]);

  return (
    <div className="grid gap-1">
      <div ref={host} />
      <p role="status" className="text-xs text-muted-foreground" data-testid="captcha-status" data-state={status}>
        {status === 'done' ? t.done : status === 'failed' ? t.failed : t.working}
      </p>
    </div>
  );
}
