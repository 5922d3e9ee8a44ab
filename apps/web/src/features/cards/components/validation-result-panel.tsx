import { SUBSCRIPTION_STATUS_LABELS } from '@carteirinha/shared/contracts/subscriptions';
import type { ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, ClockAlertIcon, UserIcon, XCircleIcon, type LucideIcon } from 'lucide-react';
import { forwardRef, useId, type ReactNode } from 'react';
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
      <dt className="text-sm text-current/75">{term}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

function PersonPhoto({ name, photoUrl }: { name: string; photoUrl: string | null }) {
  if (photoUrl) return <img src={photoUrl} alt={formatMessage(s.photoOf, { name })} className="size-14 rounded-full object-cover" />;
  return (
    <div className="flex size-14 items-center justify-center rounded-full bg-white/70">
      <UserIcon aria-hidden="true" className="size-7 text-current/60" />
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
          <p className="text-sm text-current/75">{s.patient}</p>
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
            <li key={line.label} className="rounded-lg bg-white/70 p-2 text-center">
              <span className="block text-lg font-bold tabular-nums">{line.percent}%</span>
              <span className="text-xs text-current/75">{line.label}</span>
            </li>
          ))}
        </ul>
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** What the panel shows: the server's answer, or a lookup that failed before there was one. */
export type ValidatorAnswer = { kind: 'answer'; result: ValidateCardResponse } | { kind: 'failed'; message: string };

type Tone = 'valid' | 'caution' | 'refused';

/**
 * Fixed colours, not the clinic's brand: a brand colour can be any shade, and the answer must read at ≥ 4.5:1 on
 * every site (emerald-900/800 on emerald-50, amber-950/900 on amber-50, red-900/800 on red-50 are all above 7:1).
 */
const TONES: Record<Tone, { box: string; icon: string; line: string; Icon: LucideIcon }> = {
  valid: { box: 'border-emerald-700 bg-emerald-50 text-emerald-950', icon: 'text-emerald-700', line: 'text-emerald-800', Icon: CheckCircle2Icon },
  caution: { box: 'border-amber-600 bg-amber-50 text-amber-950', icon: 'text-amber-700', line: 'text-amber-900', Icon: ClockAlertIcon },
  refused: { box: 'border-red-700 bg-red-50 text-red-950', icon: 'text-red-700', line: 'text-red-800', Icon: XCircleIcon },
};

/** The headline, the line under it and the colours of an answer. */
function describe(answer: ValidatorAnswer): { tone: Tone; title: string; line: string } {
  if (answer.kind === 'failed') return { tone: 'refused', title: formatMessage(messages.cards.lookupFailed, { message: answer.message }), line: messages.cards.notAuthorizedNoCard };
  const { result } = answer;
  switch (result.outcome) {
    case 'valid':
      return { tone: 'valid', title: result.message, line: messages.cards.authorized };
    case 'inactive':
      return { tone: 'refused', title: result.message, line: messages.cards.notAuthorized };
    case 'expired':
      return { tone: 'caution', title: result.message, line: messages.cards.notAuthorizedNoCard };
    case 'not_found':
      return { tone: 'refused', title: result.message, line: messages.cards.notAuthorizedNoCard };
  }
}

type ValidationResultPanelProps = {
  answer: ValidatorAnswer;
  /** What the desk does with a valid card (Registrar Atendimento, Ver Histórico). */
  renderValidActions: (result: ValidCardResult) => ReactNode;
};

/**
 * The answer of a validation on both validation pages (specification §8, ADR 014): the headline; for a valid card
 * 'Autorizado a aplicar desconto', the person, plan, status, expiry, 'Até N pessoas', the discounts and the visit
 * actions; 'assinatura inativa' only for a real card whose subscription is not active. The panel is the answer — no
 * toast repeats it or covers it — and its heading takes focus so a screen reader reads it at once.
 */
export const ValidationResultPanel = forwardRef<HTMLHeadingElement, ValidationResultPanelProps>(function ValidationResultPanel({ answer, renderValidActions }, headingRef) {
  const valid = answer.kind === 'answer' && isValidCardResult(answer.result) ? answer.result : null;
  const { tone, title, line } = describe(answer);
  const { box, icon, line: lineColour, Icon } = TONES[tone];
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      data-testid="validation-result"
      data-valid={valid !== null}
      data-outcome={answer.kind === 'answer' ? answer.result.outcome : 'failed'}
      className={cn('grid scroll-mt-20 gap-4 rounded-xl border-2 p-4', box)}
    >
      <div className="flex items-start gap-3">
        <Icon aria-hidden="true" className={cn('size-8 shrink-0', icon)} />
        <div>
          <h2 id={titleId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
            {title}
          </h2>
          <p className={cn('font-medium', lineColour)}>{line}</p>
        </div>
      </div>
      {valid ? <ValidResult result={valid} actions={renderValidActions(valid)} /> : null}
    </section>
  );
});
