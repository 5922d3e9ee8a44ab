import { messages } from '@carteirinha/shared/messages';
import { CreditCardIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function SubscriptionPage() {
  return (
    <>
      <PageHeader title="Assinatura" description="Sua assinatura e os planos disponíveis" />
      <EmptyState icon={CreditCardIcon} title={messages.common.notAvailableYet} />
    </>
  );
}
