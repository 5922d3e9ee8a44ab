import { SUBSCRIPTION_STATUS_LABELS, type Subscription } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, CreditCardIcon, IdCardIcon } from 'lucide-react';
import { Link } from 'react-router';
import { useMe } from '@/app/session';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { ErrorText } from '@/components/ui/error-text';
import { Spinner } from '@/components/ui/spinner';
import { useMySubscription } from '@/features/subscriptions/api/get-my-subscription';
import { errorMessage } from '@/lib/error-message';

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
          <h3 className="text-sm font-medium">{messages.patient.benefitsTitle}</h3>
          <ul className="space-y-2">
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
  return subscription ? <ActivePlanCard subscription={subscription} /> : <NoPlanCard />;
}

export function PatientHomePage() {
  const { data: me } = useMe();
  return (
    <>
      <PageHeader title={greetingFor(me?.user.fullName)} description="Boas-vindas ao seu portal do paciente" />
      <PlanSection />
    </>
  );
}
