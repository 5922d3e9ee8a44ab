import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { roleHasPermission, type Permission } from '@carteirinha/shared/permissions';
import type { Role } from '@carteirinha/shared/roles';
import {
  BadgePercentIcon,
  ClipboardListIcon,
  ClockIcon,
  HourglassIcon,
  KeyRoundIcon,
  LayoutDashboardIcon,
  MapPinnedIcon,
  QrCodeIcon,
  ScanLineIcon,
  SettingsIcon,
  StethoscopeIcon,
  IdCardIcon,
  UsersIcon,
  WalletIcon,
} from 'lucide-react';
import type { PortalNavItem } from '../portal-sidebar';
import { PortalShell } from '../portal-shell';
import { useMe } from '../session';

const l = messages.adminLayout;

type ClinicNavItem = PortalNavItem & {
  /** Shown only to roles with this permission; the others never see the entry. */
  permission?: Permission;
};

/**
 * DESIGN.md §2 "Tenancy": staff validate cards and record visits; services, team, finance and settings belong to the
 * clinic_admin. Those entries are hidden from staff rather than shown and refused; opened by their address, the
 * router's PermissionGuard says 'Acesso restrito' (and the server refuses them anyway).
 */
const CLINIC_NAV: readonly ClinicNavItem[] = [
  { to: '/clinica', label: l.nav.dashboard, icon: LayoutDashboardIcon, end: true },
  { to: '/clinica/validar', label: l.nav.validateCard, icon: ScanLineIcon },
  { to: '/clinica/validar-qrcode', label: l.nav.validateQrCode, icon: QrCodeIcon },
  { to: '/clinica/atendimentos', label: l.nav.visits, icon: ClipboardListIcon },
  { to: '/clinica/servicos', label: l.nav.services, icon: StethoscopeIcon, permission: 'clinic:manage' },
  { to: '/clinica/pacientes', label: messages.members.nav, icon: IdCardIcon, permission: 'clinic:manage' },
  { to: '/clinica/equipe', label: messages.team.nav, icon: UsersIcon, permission: 'clinic:manage' },
  { to: '/clinica/rede', label: messages.network.nav, icon: MapPinnedIcon, permission: 'clinic:manage' },
  { to: '/clinica/financeiro', label: l.nav.finance, icon: WalletIcon, permission: 'clinic:manage' },
  { to: '/clinica/configuracoes', label: l.nav.settings, icon: SettingsIcon, permission: 'clinic:manage' },
  { to: '/clinica/planos', label: messages.clinicPlans.nav, icon: BadgePercentIcon, permission: 'subscriptionPlans:write' },
  // Every member of the team manages their own passkeys.
  { to: '/clinica/seguranca', label: messages.passkeys.securityLink, icon: KeyRoundIcon },
];

function navFor(role: Role | null): readonly PortalNavItem[] {
  return CLINIC_NAV.filter((item) => item.permission === undefined || (role !== null && roleHasPermission(role, item.permission)));
}

/** A clinic in its free trial sees until when, on every page of its portal (issue: trial end date). */
function TrialBanner({ endsAt }: { endsAt: string }) {
  return (
    <div
      data-testid="trial-banner"
      className="flex items-center gap-3 rounded-lg border border-primary/40 bg-accent px-4 py-3 text-sm font-medium text-accent-foreground"
    >
      <HourglassIcon aria-hidden="true" className="size-4 shrink-0" />
      <p>{formatMessage(messages.tenancy.trialEndsOn, { date: formatDate(endsAt) })}</p>
    </div>
  );
}

/** A self-service sign-up before 'Aprovar Cadastro': the team prepares the clinic; its site takes no patients yet. */
function AwaitingApprovalBanner() {
  return (
    <div
      data-testid="awaiting-approval-banner"
      className="flex items-center gap-3 rounded-lg border border-primary/40 bg-accent px-4 py-3 text-sm font-medium text-accent-foreground"
    >
      <ClockIcon aria-hidden="true" className="size-4 shrink-0" />
      <p>{messages.tenancy.awaitingApprovalBanner}</p>
    </div>
  );
}

/** The portal of a clinic's administrators and staff (specification §2 "Clinic portal layout"). */
export function ClinicLayout() {
  const { data: me } = useMe();
  const trialEndsAt = me?.clinic?.status === 'trial' ? me.clinic.trialEndsAt : null;
  return (
    <PortalShell
      brand={l.clinicBrand}
      items={navFor(me?.role ?? null)}
      showClinic
      notice={
        <>
          {trialEndsAt ? <TrialBanner endsAt={trialEndsAt} /> : null}
          {me?.clinic?.awaitingApproval ? <AwaitingApprovalBanner /> : null}
        </>
      }
    />
  );
}
