import { PORTAL_HOME, portalOfRole } from '@carteirinha/shared/roles';
import { Navigate, useSearchParams } from 'react-router';
import { useMe } from '@/app/session';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LogoMark } from '@/components/ui/logo-mark';
import { FullPageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useClinicTenant } from '@/features/tenant/api/get-tenant';
import { AuthShell } from '../components/auth-shell';
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

/** The platform's name, or on a clinic's host the clinic's name and logo (DESIGN.md §2 "White-label"). */
function AuthTitle() {
  const tenant = useClinicTenant();
  return (
    <CardTitle asChild>
      {tenant ? (
        <h1 className="flex items-center justify-center gap-3 text-2xl font-bold">
          <LogoMark src={tenant.clinic.logoUrl} alt="" className="size-10" />
          {tenant.clinic.name}
        </h1>
      ) : (
        <h1 className="text-2xl font-bold">Carteirinha</h1>
      )}
    </CardTitle>
  );
}

/**
 * /auth: sign in and sign up (specification §2). A signed-in user with a role is sent to their portal; one without a
 * role (a new account whose onboarding is not finished) to /onboarding. `?tab=cadastrar` opens the sign-up tab. On a
 * clinic's host, signing up makes the visitor a patient of that clinic (the server does it).
 */
export function AuthPage() {
  const { data: me, isPending } = useMe();
  const [searchParams] = useSearchParams();
  const requestedTab = searchParams.get('tab');

  if (isPending) return <FullPageSpinner />;
  if (me?.role) return <Navigate to={PORTAL_HOME[portalOfRole(me.role)]} replace />;
  if (me) return <Navigate to="/onboarding" replace />;

  return (
    <AuthShell>
      <Card>
        <CardHeader className="text-center">
          <AuthTitle />
          <CardDescription>Entre ou crie sua conta para continuar</CardDescription>
        </CardHeader>
        <CardContent>
          <AuthTabs initialTab={isAuthTab(requestedTab) ? requestedTab : 'entrar'} />
        </CardContent>
      </Card>
    </AuthShell>
  );
}
