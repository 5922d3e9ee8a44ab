import { messages } from '@carteirinha/shared/messages';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { useTenant } from '@/features/tenancy/api/get-tenant';
import { authClient } from '@/lib/auth-client';
import { RETURN_PARAM, safeReturnPath } from '@/lib/return-path';
import { authServerMessage } from '../lib/auth-errors';

/**
 * 'Entrar com Google', offered only when admin Configurações allows it and the server has Google credentials
 * (`googleSignIn` of /api/tenant). better-auth answers with Google's address and the browser goes there.
 */
export function GoogleSignInButton() {
  const { data: tenant } = useTenant();
  const [pending, setPending] = useState(false);
  const [searchParams] = useSearchParams();
  if (!tenant?.googleSignIn) return null;

  const start = async () => {
    setPending(true);
    // Back through /auth, which forwards to the page asked for (`?next=`) once the session exists.
    const requested = safeReturnPath(searchParams.get(RETURN_PARAM));
    const callbackURL = requested ? `/auth?${new URLSearchParams({ [RETURN_PARAM]: requested }).toString()}` : '/';
    const { error } = await authClient.signIn.social({ provider: 'google', callbackURL });
    if (error) {
      setPending(false);
      toast.error(messages.auth.signInErrorTitle, { description: authServerMessage(error) });
    }
  };

  return (
    <Button type="button" variant="outline" className="w-full" disabled={pending} onClick={() => void start()}>
      {messages.auth.signInWithGoogle}
    </Button>
  );
}
