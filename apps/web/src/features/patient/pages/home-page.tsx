import { formatMessage, messages } from '@carteirinha/shared/messages';
import { HouseIcon } from 'lucide-react';
import { useMe } from '@/app/session';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

function greetingFor(fullName: string | undefined): string {
  const firstName = fullName?.trim().split(/\s+/)[0];
  return firstName ? formatMessage(messages.patient.greeting, { name: firstName }) : messages.patient.greetingNoName;
}

export function PatientHomePage() {
  const { data: me } = useMe();
  return (
    <>
      <PageHeader title={greetingFor(me?.user.fullName)} description="Boas-vindas ao seu portal do paciente" />
      <EmptyState icon={HouseIcon} title={messages.common.noData} />
    </>
  );
}
