import { formatPlanPrice, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { planLimitLabel } from '../lib/plan-labels';

const p = messages.adminPlans;

type PlanCardProps = {
  plan: PlatformPlanRecord;
  onEdit: (plan: PlatformPlanRecord) => void;
  onDelete: (plan: PlatformPlanRecord) => void;
};

/** One plan of /admin/planos (specification §2): badges, price, description, features, patient limit, actions. */
export function PlanCard({ plan, onEdit, onDelete }: PlanCardProps) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} role="article" className={cn('relative', plan.popular && 'border-primary shadow-md')}>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          {plan.popular ? <Badge>{p.popular}</Badge> : null}
          <Badge variant={plan.isActive ? 'secondary' : 'outline'}>{plan.isActive ? p.active : p.inactive}</Badge>
        </div>
        <CardTitle asChild className="text-xl">
          <h2 id={titleId}>{plan.name}</h2>
        </CardTitle>
        <p className="text-2xl font-bold tabular-nums">
          {formatPlanPrice(plan.priceCents)}
          {/* "Sob consulta" has no monthly figure to qualify. */}
          {plan.priceCents === null ? null : <span className="text-sm font-normal text-muted-foreground">{messages.common.perMonth}</span>}
        </p>
        {plan.description ? <CardDescription>{plan.description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex-1 space-y-4">
        <ul className="space-y-2 text-sm" aria-label={formatMessage(p.featuresOf, { name: plan.name })}>
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <CheckIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
              {feature}
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted-foreground">{formatMessage(p.patientLimit, { limit: planLimitLabel(plan.maxPatients) })}</p>
      </CardContent>
      <CardFooter className="justify-end gap-2">
        <Button variant="outline" size="icon" aria-label={formatMessage(p.editAria, { name: plan.name })} onClick={() => onEdit(plan)}>
          <PencilIcon aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="icon"
          aria-label={formatMessage(p.deleteAria, { name: plan.name })}
          className="text-destructive hover:text-destructive"
          onClick={() => onDelete(plan)}
        >
          <Trash2Icon aria-hidden="true" />
        </Button>
      </CardFooter>
    </Card>
  );
}
