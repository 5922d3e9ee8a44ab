import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { AuthShell } from '../components/auth-shell';
import { InvalidLinkNotice } from '../components/invalid-link-notice';
import { ResetPasswordForm } from '../components/reset-password-form';

/**
 * /auth/redefinir-senha: the page the reset e-mail links to, with `?token=…`; better-auth sends `?error=INVALID_TOKEN`
 * instead when it refused the link.
 */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const linkError = searchParams.get('error');
  const [tokenRejected, setTokenRejected] = useState(false);
  const usableToken = token && !linkError && !tokenRejected ? token : null;

  return (
    <AuthShell>
      <Card>
        <CardHeader className="text-center">
          <CardTitle asChild>
            <h1 className="text-2xl font-bold">Redefinir senha</h1>
          </CardTitle>
          {usableToken ? <CardDescription>Escolha uma nova senha para a sua conta.</CardDescription> : null}
        </CardHeader>
        <CardContent>
          {usableToken ? <ResetPasswordForm token={usableToken} onTokenRejected={() => setTokenRejected(true)} /> : <InvalidLinkNotice />}
        </CardContent>
      </Card>
    </AuthShell>
  );
}
