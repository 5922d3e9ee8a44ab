import { PLAN_PARAM } from '@carteirinha/shared/constants';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PORTAL_HOME, portalOfRole } from '@carteirinha/shared/roles';
import { Building2Icon, LogOutIcon, UserRoundIcon } from 'lucide-react';
import { Navigate, useSearchParams } from 'react-router';
import { useMe } from '@/app/session';
import { useSignOut } from '@/app/use-sign-out';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LogoMark } from '@/components/ui/logo-mark';
import { FullPageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useTenant } from '@/features/tenancy/api/get-tenant';
import { ConfirmEmailNotice } from '../components/confirm-email-notice';
import { CreateClinicForm } from '../components/create-clinic-form';
import { FindClinicPanel } from '../components/find-clinic-panel';
import { clinicSiteUrl } from '../lib/clinic-site-url';

function SignOutButton() {
  const signOut = useSignOut();
  return (
    <Button variant="ghost" size="sm" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
      <LogOutIcon aria-hidden="true" />
      {messages.sidebar.signOut}
    </Button>
  );
}

type OnboardingChoicesProps = {
  demoUrl: string | null;
  /** The address to confirm before a clinic can be created; null once it is confirmed. */
  unconfirmedEmail: string | null;
  /** The plan picked on the landing page (`?plano=`), carried through sign-up. */
  initialPlanId: string | undefined;
};

function OnboardingChoices({ demoUrl, unconfirmedEmail, initialPlanId }: OnboardingChoicesProps) {
  const siteUrlOf = (slug: string) => clinicSiteUrl(slug, demoUrl, window.location);
  return (
    <Tabs defaultValue="clinica">
      <TabsList className="grid w-full grid-cols-2">
        <TabsTrigger value="clinica">
          <Building2Icon aria-hidden="true" className="size-4" />
          {messages.tenancy.createClinicTab}
        </TabsTrigger>
        <TabsTrigger value="paciente">
          <UserRoundIcon aria-hidden="true" className="size-4" />
          {messages.tenancy.patientTab}
        </TabsTrigger>
      </TabsList>
      <TabsContent value="clinica" className="grid gap-4">
        <p className="text-sm text-muted-foreground">{messages.tenancy.createClinicDescription}</p>
        {unconfirmedEmail ? <ConfirmEmailNotice email={unconfirmedEmail} /> : <CreateClinicForm siteUrlOf={siteUrlOf} initialPlanId={initialPlanId} />}
      </TabsContent>
      <TabsContent value="paciente">
        <FindClinicPanel />
      </TabsContent>
    </Tabs>
  );
}

/**
 * /onboarding: where a new account on the platform's host becomes a clinic in trial, or a patient finds their clinic
 * (issue: sign-up by host). Only for a signed-in user with no role yet: signed out goes to /auth, a role to its portal.
 * Anyone who left it half-way is brought back here by /auth and the portal guards, and can always sign out.
 */
export function OnboardingPage() {
  const { data: me, isPending } = useMe();
  const { data: tenant } = useTenant();
  const [searchParams] = useSearchParams();
  const planId = searchParams.get(PLAN_PARAM) ?? undefined;

  if (isPending) return <FullPageSpinner />;
  // A signed-out visitor signs up first; the chosen plan goes along.
  if (!me) return <Navigate to={planId ? `/auth?${new URLSearchParams({ tab: 'cadastrar', [PLAN_PARAM]: planId }).toString()}` : '/auth'} replace />;
  if (me.role) return <Navigate to={PORTAL_HOME[portalOfRole(me.role)]} replace />;

  return (
    <main className="flex min-h-svh items-start justify-center bg-muted/60 p-4 sm:items-center">
      <div className="flex w-full max-w-xl flex-col gap-4">
        <div className="flex items-center justify-between gap-2">
          <p className="inline-flex items-center gap-2 text-lg font-bold tracking-tight">
            <LogoMark src={null} alt="" />
            Carteirinha
          </p>
          <SignOutButton />
        </div>
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h1 className="text-2xl font-bold">{messages.tenancy.onboardingTitle}</h1>
            </CardTitle>
            <CardDescription>{messages.tenancy.onboardingDescription}</CardDescription>
            <p className="text-sm">{formatMessage(messages.tenancy.signedInAs, { email: me.user.email })}</p>
          </CardHeader>
          <CardContent>
            {tenant?.kind === 'clinic' ? (
              // Clinics are created on the platform's own site; the server refuses it anywhere else.
              <p>{messages.tenancy.onboardingOnlyOnPlatform}</p>
            ) : (
              <OnboardingChoices demoUrl={tenant?.demoUrl ?? null} unconfirmedEmail={me.user.emailVerified ? null : me.user.email}
                initialPlanId={planId}
              />
            )}
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
