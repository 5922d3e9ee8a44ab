import { SUBSCRIPTION_STATUS_LABELS } from '@carteirinha/shared/contracts/subscriptions';
import type { ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, UserIcon, XCircleIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { groupCardNumber } from '../lib/card-format';
import { discountLines } from '../lib/discount-lines';

const s = messages.cardScreens;

/** A valid answer, with what the clinic needs to apply the discount. */
export type ValidCardResult = ValidateCardResponse & Required<Pick<ValidateCardResponse, 'subscription' | 'card' | 'person' | 'discounts'>>;

/** Whether an answer is a valid card with its details (the server sends them together). */
export function isValidCardResult(result: ValidateCardResponse): result is ValidCardResult {
  return result.valid && !!result.subscription && !!result.card && !!result.person && !!result.discounts;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-b py-2 last:border-0">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

function PersonPhoto({ name, photoUrl }: { name: string; photoUrl: string | null }) {
  if (photoUrl) return <img src={photoUrl} alt={formatMessage(s.photoOf, { name })} className="size-14 rounded-full object-cover" />;
  return (
    <div className="flex size-14 items-center justify-center rounded-full bg-muted">
      <UserIcon aria-hidden="true" className="size-7 text-muted-foreground" />
    </div>
  );
}

function ValidResult({ result, actions }: { result: ValidCardResult; actions?: ReactNode }) {
  const { subscription, person, card, discounts } = result;
  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-3">
        <PersonPhoto name={person.name} photoUrl={person.photoUrl} />
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">{s.patient}</p>
          <p className="text-lg font-semibold" data-testid="validated-person">
            {person.name}
          </p>
          {person.isDependent ? <Badge variant="secondary">{s.dependent}</Badge> : null}
        </div>
      </div>
      <dl>
        <Detail term={s.plan}>{subscription.planName}</Detail>
        <Detail term={s.status}>
          <Badge variant={subscription.status === 'active' ? 'default' : 'secondary'}>{SUBSCRIPTION_STATUS_LABELS[subscription.status]}</Badge>
        </Detail>
        <Detail term={s.expiresAt}>{subscription.expiresAt ? formatDate(subscription.expiresAt) : s.noValidity}</Detail>
        <Detail term={s.card}>
          <span className="font-mono tabular-nums">{groupCardNumber(card.number)}</span>
        </Detail>
      </dl>
      {subscription.maxMembers > 1 ? <p className="text-sm">{formatMessage(messages.cards.upToMembers, { count: subscription.maxMembers })}</p> : null}
      <div>
        <h3 className="mb-2 text-sm font-medium">{s.discounts}</h3>
        <ul className="grid grid-cols-3 gap-2">
          {discountLines(discounts).map((line) => (
            <li key={line.label} className="rounded-lg bg-muted p-2 text-center">
              <span className="block text-lg font-bold tabular-nums">{line.percent}%</span>
              <span className="text-xs text-muted-foreground">{line.label}</span>
            </li>
          ))}
        </ul>
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

type ValidationResultPanelProps = {
  result: ValidateCardResponse;
  /** What the page offers for a valid card (Registrar Atendimento, Ver Histórico). */
  renderValidActions?: (result: ValidCardResult) => ReactNode;
};

/**
 * The answer of a validation (specification §8 "Card validation (real)"): the server's message; a valid card adds
 * 'Autorizado a aplicar desconto' and its plan, status, expiry and 'Até N pessoas'; any other answer adds 'NÃO
 * aplicar desconto - assinatura inativa'.
 */
export function ValidationResultPanel({ result, renderValidActions }: ValidationResultPanelProps) {
  const valid = isValidCardResult(result) ? result : null;
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      data-testid="validation-result"
      data-valid={valid !== null}
      className={cn('grid gap-4 rounded-xl border-2 p-4', valid ? 'border-primary/60 bg-primary/5' : 'border-destructive/60 bg-destructive/5')}
    >
      <div className="flex items-start gap-3">
        {valid ? (
          <CheckCircle2Icon aria-hidden="true" className="size-8 shrink-0 text-primary" />
        ) : (
          <XCircleIcon aria-hidden="true" className="size-8 shrink-0 text-destructive" />
        )}
        <div>
          <h2 id={titleId} className="text-lg font-semibold">
            {result.message}
          </h2>
          <p className={cn('font-medium', valid ? 'text-primary' : 'text-destructive')}>{valid ? messages.cards.authorized : messages.cards.notAuthorized}</p>
        </div>
      </div>
      {valid ? <ValidResult result={valid} actions={renderValidActions?.(valid)} /> : null}
    </section>
  );
}
