import { messages } from '@carteirinha/shared/messages';
import { StethoscopeIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function ClinicServicesPage() {
  return (
    <>
      <PageHeader title="Serviços" description="Serviços da clínica com os seus descontos" />
      <EmptyState icon={StethoscopeIcon} title={messages.common.noData} />
    </>
  );
}
