import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { VisitActions } from '@/features/visits/components/visit-actions';
import { CardValidator } from '../components/card-validator';
import type { ValidCardResult } from '../components/validation-result-panel';
import { groupCardNumber } from '../lib/card-format';

const s = messages.cardScreens;

/** A valid card's Registrar Atendimento and Ver Histórico. Keyed by card, so a new card starts with closed dialogs. */
function validActions(result: ValidCardResult) {
  const card = { cardId: result.card.id, cardNumber: groupCardNumber(result.card.number), personName: result.person.name, discounts: result.discounts };
  return <VisitActions key={card.cardId} card={card} />;
}

export function ClinicValidateCardPage() {
  return (
    <>
      <PageHeader title={s.cardPageTitle} description={s.cardPageDescription} />
      <CardValidator source="manual" label={s.lookupLabel} placeholder={s.lookupPlaceholder} renderValidActions={validActions} />
    </>
  );
}
