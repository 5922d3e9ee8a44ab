import { messages } from '@carteirinha/shared/messages';
import { PageHeader } from '@/components/ui/page-header';
import { SecuritySection } from '../components/security-section';

/** Segurança in the clinic portal: the user's own passkeys (ADR 029). */
export function ClinicSecurityPage() {
  return (
    <div className="grid gap-6">
      <PageHeader title={messages.passkeys.securityTitle} description={messages.passkeys.securityDescription} />
      <SecuritySection />
    </div>
  );
}
