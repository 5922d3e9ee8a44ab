import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { CardValidator } from '@/features/cards/components/card-validator';
import type { ValidCardResult } from '@/features/cards/components/validation-result-panel';
import { groupCardNumber } from '@/features/cards/lib/card-format';
import { VisitActions } from '@/features/visits/components/visit-actions';

const s = messages.cardScreens;

/** A valid card's Registrar Atendimento and Ver Histórico. Keyed by card, so a new card starts with closed dialogs. */
function validActions(result: ValidCardResult) {
  const card = { cardId: result.card.id, cardNumber: groupCardNumber(result.card.number), personName: result.person.name, discounts: result.discounts };
  return <VisitActions key={card.cardId} card={card} />;
}

export function ValidateCardPage() {
  return (
    <>
      <PageHeader title={s.cardPageTitle} description={s.cardPageDescription} />
      <CardValidator source="manual" label={s.lookupLabel} placeholder={s.lookupPlaceholder} renderValidActions={validActions} />
    </>
  );
}
