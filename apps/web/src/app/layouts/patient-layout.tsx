import { messages } from '@carteirinha/shared/messages';
import { CreditCardIcon, DownloadIcon, HistoryIcon, HouseIcon, IdCardIcon, KeyRoundIcon, MapPinIcon, ShieldCheckIcon, UserRoundIcon } from 'lucide-react';
import { useServiceWorker } from '@/features/pwa/lib/use-service-worker';
import { PatientClinicClosedNotice } from '@/features/tenancy/components/clinic-closed';
import type { PortalNavItem } from '../portal-sidebar';
import { PortalShell } from '../portal-shell';
import { useMe } from '../session';

const l = messages.adminLayout;

const PATIENT_NAV: readonly PortalNavItem[] = [
  { to: '/paciente', label: l.nav.home, icon: HouseIcon, end: true },
  { to: '/paciente/cartao', label: l.nav.myCard, icon: IdCardIcon },
  { to: '/paciente/assinatura', label: l.nav.subscription, icon: CreditCardIcon },
  { to: '/paciente/rede', label: l.nav.network, icon: MapPinIcon },
  { to: '/paciente/historico', label: l.nav.history, icon: HistoryIcon },
  { to: '/paciente/perfil', label: l.nav.myProfile, icon: UserRoundIcon },
  { to: '/paciente/meus-dados', label: l.nav.myData, icon: ShieldCheckIcon },
  { to: '/paciente/seguranca', label: messages.passkeys.securityLink, icon: KeyRoundIcon },
  { to: '/paciente/app', label: messages.pwa.nav, icon: DownloadIcon },
];

/**
 * The card holder's portal (specification §2 "Patient portal layout"), and the installable app (issue 29). While the clinic is closed the patient keeps
 * their own records but not the programme (ADR 010), and every page says so.
 */
export function PatientLayout() {
  const { data: me } = useMe();
  // The installable app is the patient portal's (issue 29): its service worker comes with it.
  useServiceWorker();
  const clinicClosed = me?.clinic !== null && me?.clinic !== undefined && me.clinic.standing !== 'open';
  return <PortalShell brand={l.patientBrand} items={PATIENT_NAV} showClinic notice={clinicClosed ? <PatientClinicClosedNotice /> : null} />;
}
