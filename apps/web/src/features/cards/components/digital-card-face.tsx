import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { cn } from '@/lib/utils';
import { groupCardNumber, validityMonthYear } from '../lib/card-format';

const s = messages.cardScreens;

/**
 * The front of the card, drawn like a plastic card (ISO/IEC 7810 ID-1 proportions) so it reads as one on a phone:
 * plan, person, number and validity. An inactive card is greyed.
 */
export function DigitalCardFace({ card }: { card: PatientCard }) {
  return (
    <div
      data-testid="card-face"
      className={cn(
        'relative mx-auto flex aspect-[1.586] w-full max-w-md flex-col justify-between overflow-hidden rounded-2xl bg-gradient-to-br from-primary to-primary/80 p-5 text-primary-foreground shadow-lg',
        !card.active && 'from-muted-foreground to-muted-foreground/80 text-background grayscale',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-xs opacity-90">{s.plan}</p>
          <p className="text-lg leading-tight font-semibold">{card.planName}</p>
        </div>
        {card.isDependent ? <p className="rounded-full bg-black/15 px-2 py-0.5 text-xs font-medium">{s.dependent}</p> : null}
      </div>
      <p className="font-mono text-lg tracking-widest tabular-nums sm:text-xl">
        <span className="sr-only">{`${s.cardNumber}: `}</span>
        {groupCardNumber(card.number)}
      </p>
      <div className="flex items-end justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          {card.photoUrl ? (
            <img src={card.photoUrl} alt={formatMessage(s.photoOf, { name: card.personName })} className="size-12 shrink-0 rounded-full border-2 border-white/70 object-cover" />
          ) : null}
          <div className="min-w-0">
            <p className="text-xs opacity-90">{card.isDependent ? s.dependent : s.holder}</p>
            <p className="truncate font-medium uppercase">{card.personName}</p>
            {card.isDependent ? <p className="truncate text-xs opacity-90">{`${s.holder}: ${card.holderName}`}</p> : null}
          </div>
        </div>
        <div className="shrink-0 text-right">
          <p className="text-xs opacity-90">{s.validity}</p>
          <p className="font-medium tabular-nums">{card.validUntil ? validityMonthYear(card.validUntil) : s.noValidity}</p>
        </div>
      </div>
    </div>
  );
}
