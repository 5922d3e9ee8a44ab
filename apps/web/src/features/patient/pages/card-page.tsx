import { messages } from '@carteirinha/shared/messages';
import { IdCardIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function CardPage() {
  return (
    <>
      <PageHeader title="Meu Cartão" description="Seu cartão digital de descontos" />
      <EmptyState icon={IdCardIcon} title={messages.common.notAvailableYet} />
    </>
  );
}
