import { formatMessage, messages } from '@carteirinha/shared/messages';
import { MailCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { authClient } from '@/lib/auth-client';
import { toast } from '@/lib/toasts';

const t = messages.tenancy;

/**
 * Shown instead of "Criar minha clínica" until the address is confirmed (ADR 006): the clinic's admin is whoever holds
 * the mailbox. The link lands on the site root; coming back here then shows the form.
 */
export function ConfirmEmailNotice({ email }: { email: string }) {
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    try {
      const { error } = await authClient.sendVerificationEmail({ email, callbackURL: '/' });
      if (error) toast.error(t.verificationResendError);
      else toast.success(t.verificationResent);
    } catch {
      toast.error(t.verificationResendError);
    } finally {
      setSending(false);
    }
  }

  return (
    <section aria-labelledby="confirm-email-title" className="grid gap-3 rounded-md border bg-muted/40 p-4" data-testid="confirm-email-notice">
      <h2 id="confirm-email-title" className="inline-flex items-center gap-2 font-semibold">
        <MailCheckIcon aria-hidden="true" className="size-4" />
        {t.verifyEmailTitle}
      </h2>
      <p className="text-sm">{formatMessage(t.verifyEmailOnboarding, { email })}</p>
      <div>
        <Button type="button" variant="outline" size="sm" disabled={sending} onClick={() => void resend()}>
          {t.resendVerification}
        </Button>
      </div>
    </section>
  );
}
