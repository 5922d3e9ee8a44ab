import { messages } from '@carteirinha/shared/messages';
import { BanknoteIcon, Building2Icon, ChartColumnIcon, LayoutDashboardIcon, KeyRoundIcon, PackageIcon, SettingsIcon, UsersIcon } from 'lucide-react';
import type { PortalNavItem } from '../portal-sidebar';
import { PortalShell } from '../portal-shell';

const l = messages.adminLayout;

const ADMIN_NAV: readonly PortalNavItem[] = [
  { to: '/admin', label: l.nav.dashboard, icon: LayoutDashboardIcon, end: true },
  { to: '/admin/clinicas', label: l.nav.clinics, icon: Building2Icon },
  { to: '/admin/usuarios', label: l.nav.users, icon: UsersIcon },
  { to: '/admin/planos', label: l.nav.plans, icon: PackageIcon },
  { to: '/admin/relatorios', label: l.nav.reports, icon: ChartColumnIcon },
  // Not in the specification's route tree, but its "billing" (§1): the clinics' monthly payouts (issue 26).
  { to: '/admin/repasses', label: l.nav.payouts, icon: BanknoteIcon },
  { to: '/admin/configuracoes', label: l.nav.settings, icon: SettingsIcon },
  { to: '/admin/seguranca', label: messages.passkeys.securityLink, icon: KeyRoundIcon },
];

/** The platform's back office (specification §2 "Admin portal layout"). */
export function AdminLayout() {
  return <PortalShell brand={l.adminBrand} groupLabel={l.mainMenu} items={ADMIN_NAV} showClinic={false} />;
}
