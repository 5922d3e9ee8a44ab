import { messages } from '@carteirinha/shared/messages';
import { UserRoundIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function PatientProfilePage() {
  return (
    <>
      <PageHeader title="Meu Perfil" description="Seus dados pessoais" />
      <EmptyState icon={UserRoundIcon} title={messages.common.notAvailableYet} />
    </>
  );
}
