import { ClipboardListIcon, LayoutDashboardIcon, QrCodeIcon, ScanLineIcon, SettingsIcon, StethoscopeIcon, WalletIcon } from 'lucide-react';
import type { PortalNavItem } from '../portal-sidebar';
import { PortalShell } from '../portal-shell';

const CLINIC_NAV: readonly PortalNavItem[] = [
  { to: '/clinica', label: 'Dashboard', icon: LayoutDashboardIcon, end: true },
  { to: '/clinica/validar', label: 'Validar Cartão', icon: ScanLineIcon },
  { to: '/clinica/validar-qrcode', label: 'Validar QR Code', icon: QrCodeIcon },
  { to: '/clinica/atendimentos', label: 'Atendimentos', icon: ClipboardListIcon },
  { to: '/clinica/servicos', label: 'Serviços', icon: StethoscopeIcon },
  { to: '/clinica/financeiro', label: 'Financeiro', icon: WalletIcon },
  { to: '/clinica/configuracoes', label: 'Configurações', icon: SettingsIcon },
];

/** The portal of a clinic's administrators and staff (specification §2 "Clinic portal layout"). */
export function ClinicLayout() {
  return <PortalShell brand="Portal Clínica" items={CLINIC_NAV} showClinic />;
}
