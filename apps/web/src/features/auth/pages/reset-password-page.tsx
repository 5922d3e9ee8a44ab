import { messages } from '@carteirinha/shared/messages';
import { TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { AuthShell } from '../components/auth-shell';
import { ResetPasswordForm } from '../components/reset-password-form';

function InvalidLinkNotice() {
  return (
    <div role="alert" data-testid="reset-invalid-token" className="flex flex-col items-center gap-4 text-center">
      <TriangleAlertIcon aria-hidden="true" className="size-8 text-destructive" />
      <p className="text-sm">{messages.auth.resetInvalidToken}</p>
      <Button asChild variant="outline">
        <Link to="/auth">Voltar para o login</Link>
      </Button>
    </div>
  );
}

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
