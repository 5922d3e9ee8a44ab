import { CreditCardIcon, HistoryIcon, HouseIcon, IdCardIcon, MapPinIcon, UserRoundIcon } from 'lucide-react';
import type { PortalNavItem } from '../portal-sidebar';
import { PortalShell } from '../portal-shell';

const PATIENT_NAV: readonly PortalNavItem[] = [
  { to: '/paciente', label: 'Início', icon: HouseIcon, end: true },
  { to: '/paciente/cartao', label: 'Meu Cartão', icon: IdCardIcon },
  { to: '/paciente/assinatura', label: 'Assinatura', icon: CreditCardIcon },
  { to: '/paciente/rede', label: 'Rede Credenciada', icon: MapPinIcon },
  { to: '/paciente/historico', label: 'Histórico', icon: HistoryIcon },
  { to: '/paciente/perfil', label: 'Meu Perfil', icon: UserRoundIcon },
];

/** The card holder's portal (specification §2 "Patient portal layout"). */
export function PatientLayout() {
  return <PortalShell brand="Portal do Paciente" items={PATIENT_NAV} showClinic />;
}
