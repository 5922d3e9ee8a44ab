import { Building2Icon, ChartColumnIcon, LayoutDashboardIcon, PackageIcon, SettingsIcon, UsersIcon } from 'lucide-react';
import type { PortalNavItem } from '../portal-sidebar';
import { PortalShell } from '../portal-shell';

const ADMIN_NAV: readonly PortalNavItem[] = [
  { to: '/admin', label: 'Dashboard', icon: LayoutDashboardIcon, end: true },
  { to: '/admin/clinicas', label: 'Clínicas', icon: Building2Icon },
  { to: '/admin/usuarios', label: 'Usuários', icon: UsersIcon },
  { to: '/admin/planos', label: 'Planos', icon: PackageIcon },
  { to: '/admin/relatorios', label: 'Relatórios', icon: ChartColumnIcon },
  { to: '/admin/configuracoes', label: 'Configurações', icon: SettingsIcon },
];

/** The platform's back office (specification §2 "Admin portal layout"). */
export function AdminLayout() {
  return <PortalShell brand="Admin Portal" groupLabel="Menu Principal" items={ADMIN_NAV} showClinic={false} />;
}
