import { SUBSCRIPTION_STATUS_LABELS, type Subscription } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, CreditCardIcon, IdCardIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { useMe } from '@/app/session';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { ErrorState } from '@/components/ui/error-state';
import { ErrorText } from '@/components/ui/error-text';
import { Spinner } from '@/components/ui/spinner';
import { useMySubscription } from '@/features/subscriptions/api/get-my-subscription';
import { endedAtOf } from '@/features/subscriptions/lib/plan-display';
import { errorMessage } from '@/lib/error-message';
import { usePatientHome } from '../api/get-patient-home';
import { DependentsTile, LatestVisits, NetworkTile, NextAppointmentTile } from '../components/patient-home-tiles';

function greetingFor(fullName: string | undefined): string {
  const firstName = fullName?.trim().split(/\s+/)[0];
  return firstName ? formatMessage(messages.patient.greeting, { name: firstName }) : messages.patient.greetingNoName;
}

/** The plan's discounts as the patient reads them; a 0 % discount is no benefit, so it is left out. */
function benefitsOf(discounts: Subscription['plan']['discounts']): string[] {
  const lines: [string, number][] = [
    [messages.patient.benefitConsultas, discounts.consultas],
    [messages.patient.benefitExames, discounts.exames],
    [messages.patient.benefitProcedimentos, discounts.procedimentos],
  ];
  return lines.filter(([, percent]) => percent > 0).map(([template, percent]) => formatMessage(template, { percent }));
}

function ActivePlanCard({ subscription }: { subscription: Subscription }) {
  const benefits = benefitsOf(subscription.plan.discounts);
  const benefitsId = useId();
  return (
    <Card>
      <CardHeader>
        <p className="text-sm text-muted-foreground">{messages.patient.currentPlan}</p>
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle asChild className="text-xl">
            <h2>{subscription.plan.name}</h2>
          </CardTitle>
          <Badge variant={subscription.status === 'active' ? 'default' : 'secondary'}>{SUBSCRIPTION_STATUS_LABELS[subscription.status]}</Badge>
        </div>
        <CardDescription>
          {subscription.expiresAt
            ? formatMessage(messages.patient.validUntil, { date: formatDate(subscription.expiresAt) })
            : messages.patient.noExpiry}
        </CardDescription>
      </CardHeader>
      {benefits.length > 0 ? (
        <CardContent className="space-y-3">
          <h3 id={benefitsId} className="text-sm font-medium">
            {messages.patient.benefitsTitle}
          </h3>
          <ul aria-labelledby={benefitsId} className="space-y-2">
            {benefits.map((benefit) => (
              <li key={benefit} className="flex items-center gap-2 text-sm">
                <CheckCircle2Icon aria-hidden="true" className="size-4 shrink-0 text-primary" />
                {benefit}
              </li>
            ))}
          </ul>
        </CardContent>
      ) : null}
      <CardFooter>
        <Button asChild>
          <Link to="/paciente/cartao">
            <IdCardIcon aria-hidden="true" />
            {messages.patient.viewCard}
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

/** A plan that ended (cancelled, a withdrawal, run out): what is true now, and the way to the subscription page. */
function EndedPlanCard({ subscription, endedAt }: { subscription: Subscription; endedAt: string }) {
  return (
    <Card>
      <CardHeader>
        <p className="text-sm text-muted-foreground">{messages.patient.currentPlan}</p>
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle asChild className="text-xl">
            <h2>{subscription.plan.name}</h2>
          </CardTitle>
          <Badge variant="secondary">{SUBSCRIPTION_STATUS_LABELS[subscription.status]}</Badge>
        </div>
        <CardDescription>{formatMessage(messages.patient.endedOn, { date: formatDate(endedAt) })}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild>
          <Link to="/paciente/assinatura">
            <CreditCardIcon aria-hidden="true" />
            {messages.patient.viewSubscription}
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

function NoPlanCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>{messages.patient.noPlanTitle}</h2>
        </CardTitle>
        <CardDescription>{messages.patient.noPlan}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild>
          <Link to="/paciente/assinatura">
            <CreditCardIcon aria-hidden="true" />
            {messages.patient.viewPlans}
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

function PlanSection() {
  const { data: subscription, error, isPending } = useMySubscription();
  if (isPending) return <Spinner />;
  if (error) {
    return (
      <ErrorText>{errorMessage(error)}</ErrorText>
    );
  }
  if (!subscription) return <NoPlanCard />;
  const endedAt = endedAtOf(subscription, new Date());
  return endedAt ? <EndedPlanCard subscription={subscription} endedAt={endedAt} /> : <ActivePlanCard subscription={subscription} />;
}

/** The three tiles and the latest visits, from GET /api/patient/home. */
function HomeSections({ clinicName }: { clinicName: string | null }) {
  const home = usePatientHome();
  if (home.error) return <ErrorState error={home.error} onRetry={() => void home.refetch()} retrying={home.isFetching} />;
  if (!home.data) return <Spinner className="mx-auto" />;
  return (
    <>
      <div className="grid gap-4 md:grid-cols-3">
        <NextAppointmentTile appointment={home.data.nextAppointment} clinicName={clinicName} />
        <NetworkTile placesCount={home.data.networkPlaces} />
        <DependentsTile dependents={home.data.dependents} />
      </div>
      <LatestVisits visits={home.data.latestVisits} />
    </>
  );
}

export function PatientHomePage() {
  const { data: me } = useMe();
  return (
    <div className="space-y-6">
      <PageHeader title={greetingFor(me?.user.fullName)} description={messages.patient.homeDescription} />
      <PlanSection />
      <HomeSections clinicName={me?.clinic?.name ?? null} />
    </div>
  );
}
