import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { CardValidator } from '../components/card-validator';
import { HowItWorks } from '../components/how-it-works';

const s = messages.cardScreens;

export function ClinicValidateQrCodePage() {
  return (
    <>
      <PageHeader title={s.qrPageTitle} description={s.qrPageDescription} />
      <CardValidator source="qrcode" label={s.tokenLabel} placeholder={s.tokenPlaceholder} aside={<HowItWorks />} />
    </>
  );
}
