import { messages } from '@carteirinha/shared/messages';
import { roleHasPermission } from '@carteirinha/shared/permissions';
import { useMe } from '@/app/session';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useBranding } from '@/features/branding/api/get-branding';
import { BrandingCard } from '@/features/branding/components/branding-card';
import { CpfOwnerCard } from '@/features/profiles/components/cpf-owner-card';
import { Suspense } from 'react';
import { lazyComponent } from '@/lib/lazy-component';
import { useClinicSettings } from '../api/clinic-settings';

const loadSettingsForm = () => import('../components/clinic-settings-form');
// The form's code (masks, switches, its schema) is asked for with the settings, not before the page's first paint.
const ClinicSettingsForm = lazyComponent(loadSettingsForm, (m) => m.ClinicSettingsForm);

const c = messages.clinicSettings;

/** The clinic's data, hours, notifications and grace period, read from the server and saved together. */
function ClinicSettingsSection() {
  const settings = useClinicSettings();
  // Both on their way at once: the saved values and the form that shows them.
  void loadSettingsForm();
  if (settings.error) return <ErrorState {...retryPropsOf(settings)} />;
  if (!settings.data) return <Spinner className="self-center" />;
  return (
    <Suspense fallback={<Spinner className="self-center" />}>
      <ClinicSettingsForm settings={settings.data} />
    </Suspense>
  );
}

/**
 * /clinica/configuracoes (clinic_admin): the clinic's data, opening hours, notification switches, grace period and
 * site address; its white-label identity; and 'Corrigir CPF'.
 */
export function ClinicSettingsPage() {
  const { data: me } = useMe();
  const branding = useBranding();
  const canManage = me?.role ? roleHasPermission(me.role, 'clinic:manage') : false;

  return (
    <>
      <PageHeader title={c.title} description={c.description} />
      {canManage ? <ClinicSettingsSection /> : null}
      {branding.error ? <ErrorState {...retryPropsOf(branding)} /> : null}
      {branding.isPending ? <Spinner className="self-center" /> : null}
      {/* Keyed by clinic so the form starts again from the saved values if the cache is replaced. */}
      {branding.data ? <BrandingCard key={branding.data.id} branding={branding.data} canManage={canManage} /> : null}
      {/* Only the clinic admin moves a CPF (the router shuts this page to others; the server refuses them too). */}
      {canManage ? <CpfOwnerCard /> : null}
    </>
  );
}
