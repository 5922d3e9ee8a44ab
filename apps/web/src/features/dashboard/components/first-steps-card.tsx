import type { FirstStep, FirstSteps } from '@carteirinha/shared/contracts/dashboard';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, CircleIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

const f = messages.firstSteps;

/**
 * The screen that does each step. The plan's price, its terms and the payment account are the sections of Planos
 * (the Asaas account is connected there, beside the billing settings); logo and colour are in Configurações.
 */
const STEP_PATHS: Record<FirstStep, string> = {
  reviewPlan: '/clinica/planos',
  reviewTerms: '/clinica/planos',
  connectPayments: '/clinica/planos',
  branding: '/clinica/configuracoes',
  firstService: '/clinica/servicos',
  firstTeamMember: '/clinica/equipe',
  firstValidation: '/clinica/validar',
};

function StepRow({ step, done }: { step: FirstStep; done: boolean }) {
  const { title, hint } = f.steps[step];
  const Icon = done ? CheckCircle2Icon : CircleIcon;
  return (
    <li data-testid={`first-step-${step}`} data-done={done} className="flex items-start gap-3 py-3">
      <Icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', done ? 'text-primary-text' : 'text-muted-foreground')} />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <Link to={STEP_PATHS[step]} className={cn('font-medium underline-offset-4 hover:underline', done && 'text-muted-foreground line-through')}>
          {title}
        </Link>
        <p className="text-sm text-muted-foreground">{hint}</p>
      </div>
      <span className={cn('shrink-0 text-xs font-medium', done ? 'text-primary-text' : 'text-muted-foreground')}>{done ? f.done : f.pending}</span>
    </li>
  );
}

/** 'Primeiros passos': the checklist of a new clinic, ticked by what it already did; gone once every step is done. */
export function FirstStepsCard({ steps }: { steps: FirstSteps['steps'] }) {
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  return (
    <Card role="region" aria-labelledby="first-steps-title" data-testid="first-steps">
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2 id="first-steps-title">{f.title}</h2>
        </CardTitle>
        <CardDescription>
          {f.description} {formatMessage(f.progress, { done, total: steps.length })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="divide-y">
          {steps.map((step) => (
            <StepRow key={step.key} step={step.key} done={step.done} />
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

/** While a self-service sign-up awaits 'Aprovar Cadastro': what happens next. */
export function AwaitingApprovalCard() {
  return (
    <Card role="region" aria-labelledby="awaiting-approval-title" data-testid="awaiting-approval" className="border-primary/40 bg-accent">
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2 id="awaiting-approval-title">{f.awaitingTitle}</h2>
        </CardTitle>
        <CardDescription className="text-accent-foreground">{f.awaitingDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          {f.awaitingSteps.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
