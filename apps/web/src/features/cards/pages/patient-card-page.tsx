import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { PatientCardView } from '../components/patient-card-view';

export function PatientCardPage() {
  return (
    <>
      <PageHeader title={messages.cardScreens.cardTitle} description={messages.cardScreens.cardDescription} />
      <PatientCardView />
    </>
  );
}
