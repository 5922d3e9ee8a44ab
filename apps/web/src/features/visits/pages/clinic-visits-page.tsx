import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { VisitsList } from '../components/visits-list';

export function ClinicVisitsPage() {
  return (
    <>
      <PageHeader title={messages.cardScreens.visitsTitle} description={messages.cardScreens.visitsDescription} />
      <VisitsList />
    </>
  );
}
