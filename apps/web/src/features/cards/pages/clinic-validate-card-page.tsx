import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { CardValidator } from '../components/card-validator';

const s = messages.cardScreens;

export function ClinicValidateCardPage() {
  return (
    <>
      <PageHeader title={s.cardPageTitle} description={s.cardPageDescription} />
      <CardValidator source="manual" label={s.lookupLabel} placeholder={s.lookupPlaceholder} />
    </>
  );
}
