import type { ClinicContact } from '@carteirinha/shared/contracts/clinics';
import { FullPageSpinner } from '@/components/ui/spinner';
import { LandingPage } from '@/features/landing/pages/landing-page';
import { useTenant } from '@/features/tenancy/api/get-tenant';
import { ClinicAwaitingApprovalPage } from '@/features/tenancy/pages/clinic-awaiting-approval-page';
import { ClinicLandingPage } from '@/features/tenancy/pages/clinic-landing-page';

/**
 * "/": the host decides (DESIGN.md §2 "White-label"). A clinic's host shows that clinic's page with its patient
 * plans; the platform's host shows the platform's landing page. If the answer cannot be had (offline), the platform's
 * page is the harmless default: the server still decides what a sign-up on this host creates. The clinic's hours and
 * contact come with the server's drawing of the page (ADR 019); the SPA's copy of "/" goes without them.
 */
export function HomePage({ contact = null }: { contact?: ClinicContact | null }) {
  const { data: tenant, isPending } = useTenant();
  if (isPending) return <FullPageSpinner />;
  // A self-service sign-up's site says it awaits 'Aprovar Cadastro' until the platform accepts the clinic.
  if (tenant?.kind === 'clinic' && tenant.awaitingApproval) return <ClinicAwaitingApprovalPage tenant={tenant} />;
  if (tenant?.kind === 'clinic') return <ClinicLandingPage tenant={tenant} contact={contact} />;
  return <LandingPage demoUrl={tenant?.demoUrl ?? null} />;
}
