import { PORTAL_HOME, portalOfRole } from '@carteirinha/shared/roles';
import { Navigate, useSearchParams } from 'react-router';
import { useMe } from '@/app/session';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FullPageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AuthShell } from '../components/auth-shell';
import { NoRolePanel } from '../components/no-role-panel';
import { SignInForm } from '../components/sign-in-form';
import { SignUpForm } from '../components/sign-up-form';

const TABS = ['entrar', 'cadastrar'] as const;
type AuthTab = (typeof TABS)[number];

function isAuthTab(value: string | null): value is AuthTab {
  return TABS.some((tab) => tab === value);
}

function AuthTabs({ initialTab }: { initialTab: AuthTab }) {
  return (
    <Tabs defaultValue={initialTab}>
      <TabsList className="grid w-full grid-cols-2">
        <TabsTrigger value="entrar">Entrar</TabsTrigger>
        <TabsTrigger value="cadastrar">Cadastrar</TabsTrigger>
      </TabsList>
      <TabsContent value="entrar">
        <SignInForm />
      </TabsContent>
      <TabsContent value="cadastrar">
        <SignUpForm />
      </TabsContent>
    </Tabs>
  );
}

/**
 * /auth: sign in and sign up (specification §2). A signed-in user with a role is sent to their portal; one without a
 * role is told so. `?tab=cadastrar` opens the sign-up tab.
 */
export function AuthPage() {
  const { data: me, isPending } = useMe();
  const [searchParams] = useSearchParams();
  const requestedTab = searchParams.get('tab');

  if (isPending) return <FullPageSpinner />;
  if (me?.role) return <Navigate to={PORTAL_HOME[portalOfRole(me.role)]} replace />;

  return (
    <AuthShell>
      <Card>
        <CardHeader className="text-center">
          <CardTitle asChild>
            <h1 className="text-2xl font-bold">Carteirinha</h1>
          </CardTitle>
          {me ? null : <CardDescription>Entre ou crie sua conta para continuar</CardDescription>}
        </CardHeader>
        <CardContent>
          {me ? <NoRolePanel email={me.user.email} /> : <AuthTabs initialTab={isAuthTab(requestedTab) ? requestedTab : 'entrar'} />}
        </CardContent>
      </Card>
    </AuthShell>
  );
}
