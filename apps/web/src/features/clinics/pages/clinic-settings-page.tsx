import { messages } from '@carteirinha/shared/messages';
import { roleHasPermission } from '@carteirinha/shared/permissions';
import { useMe } from '@/app/session';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useBranding } from '@/features/branding/api/get-branding';
import { BrandingCard } from '@/features/branding/components/branding-card';
import { CpfOwnerCard } from '@/features/profiles/components/cpf-owner-card';

/** /clinica/configuracoes: the clinic's settings: its white-label identity, and 'Corrigir CPF' for the clinic admin. */
export function ClinicSettingsPage() {
  const { data: me } = useMe();
  const { data: branding, isPending, isError } = useBranding();
  const canManage = me?.role ? roleHasPermission(me.role, 'clinic:manage') : false;

  return (
    <>
      <PageHeader title="Configurações" description="Dados e preferências da clínica" />
      {isPending ? <Spinner className="self-center" /> : null}
      {isError ? <p className="text-sm text-destructive">{messages.errors.INTERNAL}</p> : null}
      {/* Keyed by clinic so the form starts again from the saved values if the cache is replaced. */}
      {branding ? <BrandingCard key={branding.id} branding={branding} canManage={canManage} /> : null}
      {/* Only the clinic admin moves a CPF (the router shuts this page to others; the server refuses them too). */}
      {canManage ? <CpfOwnerCard /> : null}
    </>
  );
}
