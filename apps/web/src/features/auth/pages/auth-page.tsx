import type { SignInInput, SignUpInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { useCallback, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useMe } from '@/app/session';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LogoMark } from '@/components/ui/logo-mark';
import { FullPageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useClinicTenant } from '@/features/tenancy/api/get-tenant';
import { landingPathFor, RETURN_PARAM } from '@/lib/return-path';
import { onboardingPath } from '../lib/use-enter-portal';
import { AuthShell } from '../components/auth-shell';
import { SignInForm } from '../components/sign-in-form';
import { SignUpForm } from '../components/sign-up-form';

const TABS = ['entrar', 'cadastrar'] as const;
type AuthTab = (typeof TABS)[number];

function isAuthTab(value: string | null): value is AuthTab {
  return TABS.some((tab) => tab === value);
}

type Drafts = { signIn?: SignInInput; signUp?: SignUpInput };

/**
 * Each form hands what was typed in it over when its tab closes and gets it back when the tab opens again, so a
 * visitor who starts signing up and goes back to 'Entrar' loses nothing (only the open tab's form is in the page).
 */
function AuthTabs({ initialTab }: { initialTab: AuthTab }) {
  const [drafts, setDrafts] = useState<Drafts>({});
  const keepSignIn = useCallback((signIn: SignInInput) => setDrafts((current) => ({ ...current, signIn })), []);
  const keepSignUp = useCallback((signUp: SignUpInput) => setDrafts((current) => ({ ...current, signUp })), []);
  return (
    <Tabs defaultValue={initialTab}>
      <TabsList className="grid w-full grid-cols-2">
        <TabsTrigger value="entrar">Entrar</TabsTrigger>
        <TabsTrigger value="cadastrar">Cadastrar</TabsTrigger>
      </TabsList>
      <TabsContent value="entrar">
        <SignInForm draft={drafts.signIn} onLeave={keepSignIn} />
      </TabsContent>
      <TabsContent value="cadastrar">
        <SignUpForm draft={drafts.signUp} onLeave={keepSignUp} />
      </TabsContent>
    </Tabs>
  );
}

/**
 * A clinic's site awaiting 'Aprovar Cadastro' takes no patients (the server refuses the sign-up too): its team signs
 * in, everyone else is told to come back later.
 */
function AwaitingApprovalSignIn() {
  return (
    <div className="grid gap-4">
      <p data-testid="awaiting-approval-note" className="rounded-lg bg-muted p-3 text-sm">
        {messages.tenancy.awaitingApprovalSignUp}
      </p>
      <SignInForm />
    </div>
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
 * /auth: sign in and sign up (specification §2). A signed-in user with a role is sent to their portal — to the page
 * named by `?next=` when the role may see it (the guard of a portal page sends a signed-out visitor here with it); one without a
 * role (a new account whose onboarding is not finished) to /onboarding. `?tab=cadastrar` opens the sign-up tab. On a
 * clinic's host, signing up makes the visitor a patient of that clinic (the server does it).
 */
export function AuthPage() {
  const { data: me, isPending } = useMe();
  const [searchParams] = useSearchParams();
  const requestedTab = searchParams.get('tab');
  const tenant = useClinicTenant();

  if (isPending) return <FullPageSpinner />;
  if (me?.role) return <Navigate to={landingPathFor(me.role, searchParams.get(RETURN_PARAM))} replace />;
  if (me) return <Navigate to={onboardingPath(searchParams)} replace />;

  return (
    <AuthShell>
      <Card>
        <CardHeader className="text-center">
          <AuthTitle />
          <CardDescription>Entre ou crie sua conta para continuar</CardDescription>
        </CardHeader>
        <CardContent>
          {tenant?.awaitingApproval ? <AwaitingApprovalSignIn /> : <AuthTabs initialTab={isAuthTab(requestedTab) ? requestedTab : 'entrar'} />}
        </CardContent>
      </Card>
    </AuthShell>
  );
}
