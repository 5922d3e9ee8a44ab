import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { VisitsList } from '@/features/visits/components/visits-list';

export function VisitsPage() {
  return (
    <>
      <PageHeader title={messages.cardScreens.visitsTitle} description={messages.cardScreens.visitsDescription} />
      <VisitsList />
    </>
  );
}
