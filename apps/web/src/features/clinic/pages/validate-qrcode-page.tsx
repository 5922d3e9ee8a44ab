import { messages } from '@carteirinha/shared/messages';
import { QrCodeIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function ValidateQrCodePage() {
  return (
    <>
      <PageHeader title="Validar QR Code" description="Valide o QR Code do cartão digital do paciente" />
      <EmptyState icon={QrCodeIcon} title={messages.common.notAvailableYet} />
    </>
  );
}
