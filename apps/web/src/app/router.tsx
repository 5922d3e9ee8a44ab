import { createBrowserRouter, type RouteObject } from 'react-router';
import type { Permission } from '@carteirinha/shared/permissions';
import type { Portal } from '@carteirinha/shared/roles';
import { FullPageSpinner } from '@/components/ui/spinner';
import { tenantQueryOptions } from '@/features/tenancy/api/get-tenant';
import { queryClient } from '@/lib/query-client';
import { dismissToastsOnPageChange } from '@/lib/toasts';
import { RootLayout } from './root-layout';

/**
 * A lazily loaded route: each portal's layout and pages arrive as their own chunks. The export is named by a string,
 * so it is typed against the module: a page renamed without its route fails the typecheck, not the first visit.
 */
function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, React.ComponentType>>,
  exportName: Name,
): RouteObject['lazy'] {
  return async () => {
    const module = await load();
    return { Component: module[exportName] };
  };
}

/**
 * The guard comes with the portal's chunk: the landing page, the first thing a visitor loads, carries neither the
 * session code nor the forms (zod, react-hook-form, the auth client).
 */
function lazyGuard(portal: Portal): RouteObject['lazy'] {
  return async () => {
    const { RoleGuard } = await import('./role-guard');
    return { Component: () => <RoleGuard portal={portal} /> };
  };
}

/** Within a portal, pages only some of its roles may open (packages/shared/src/permissions.ts). */
function lazyPermissionGuard(permission: Permission): RouteObject['lazy'] {
  return async () => {
    const { PermissionGuard } = await import('./permission-guard');
    return { Component: () => <PermissionGuard permission={permission} /> };
  };
}

const adminRoutes: RouteObject = {
  path: '/admin',
  lazy: lazyGuard('admin'),
  children: [
    {
      lazy: lazyPage(() => import('./layouts/admin-layout'), 'AdminLayout'),
      children: [
        { index: true, lazy: lazyPage(() => import('@/features/dashboard/pages/admin-dashboard-page'), 'AdminDashboardPage') },
        { path: 'clinicas', lazy: lazyPage(() => import('@/features/clinics/pages/admin-clinics-page'), 'AdminClinicsPage') },
        { path: 'usuarios', lazy: lazyPage(() => import('@/features/users/pages/admin-users-page'), 'AdminUsersPage') },
        { path: 'planos', lazy: lazyPage(() => import('@/features/plans/pages/admin-plans-page'), 'AdminPlansPage') },
        { path: 'relatorios', lazy: lazyPage(() => import('@/features/reports/pages/admin-reports-page'), 'AdminReportsPage') },
        { path: 'repasses', lazy: lazyPage(() => import('@/features/payouts/pages/admin-payouts-page'), 'AdminPayoutsPage') },
        { path: 'configuracoes', lazy: lazyPage(() => import('@/features/settings/pages/admin-settings-page'), 'AdminSettingsPage') },
        { path: 'seguranca', lazy: lazyPage(() => import('@/features/passkeys/pages/admin-security-page'), 'AdminSecurityPage') },
      ],
    },
    // 'Exportar PDF' opens this in its own tab: guarded like the portal, but printed without the sidebar.
    {
      path: 'relatorios/imprimir/:kind',
      lazy: lazyPage(() => import('@/features/reports/pages/admin-report-print-page'), 'AdminReportPrintPage'),
    },
  ],
};

const clinicRoutes: RouteObject = {
  path: '/clinica',
  lazy: lazyGuard('clinic'),
  children: [
    {
      lazy: lazyPage(() => import('./layouts/clinic-layout'), 'ClinicLayout'),
      children: [
        { index: true, lazy: lazyPage(() => import('@/features/dashboard/pages/clinic-dashboard-page'), 'ClinicDashboardPage') },
        { path: 'validar', lazy: lazyPage(() => import('@/features/cards/pages/clinic-validate-card-page'), 'ClinicValidateCardPage') },
        { path: 'validar-qrcode', lazy: lazyPage(() => import('@/features/cards/pages/clinic-validate-qrcode-page'), 'ClinicValidateQrCodePage') },
        { path: 'atendimentos', lazy: lazyPage(() => import('@/features/visits/pages/clinic-visits-page'), 'ClinicVisitsPage') },
        { path: 'seguranca', lazy: lazyPage(() => import('@/features/passkeys/pages/clinic-security-page'), 'ClinicSecurityPage') },
        // The clinic_admin's pages: hidden from the sidebar of other roles, and shut to them by address too.
        {
          lazy: lazyPermissionGuard('clinic:manage'),
          children: [
            { path: 'servicos', lazy: lazyPage(() => import('@/features/services/pages/clinic-services-page'), 'ClinicServicesPage') },
            { path: 'equipe', lazy: lazyPage(() => import('@/features/team/pages/clinic-team-page'), 'ClinicTeamPage') },
            { path: 'pacientes', lazy: lazyPage(() => import('@/features/members/pages/clinic-members-page'), 'ClinicMembersPage') },
            { path: 'pacientes/importar', lazy: lazyPage(() => import('@/features/members/pages/clinic-member-import-page'), 'ClinicMemberImportPage') },
            { path: 'pacientes/:userId', lazy: lazyPage(() => import('@/features/members/pages/clinic-member-page'), 'ClinicMemberPage') },
            { path: 'rede', lazy: lazyPage(() => import('@/features/network/pages/clinic-network-page'), 'ClinicNetworkPage') },
            { path: 'financeiro', lazy: lazyPage(() => import('@/features/payouts/pages/clinic-finance-page'), 'ClinicFinancePage') },
            { path: 'configuracoes', lazy: lazyPage(() => import('@/features/clinics/pages/clinic-settings-page'), 'ClinicSettingsPage') },
          ],
        },
        // The patient plans, their terms and billing: written by the clinic_admin only.
        {
          lazy: lazyPermissionGuard('subscriptionPlans:write'),
          children: [{ path: 'planos', lazy: lazyPage(() => import('@/features/subscription-plans/pages/clinic-plans-page'), 'ClinicPlansPage') }],
        },
      ],
    },
  ],
};

const patientRoutes: RouteObject = {
  path: '/paciente',
  lazy: lazyGuard('patient'),
  children: [
    {
      lazy: lazyPage(() => import('./layouts/patient-layout'), 'PatientLayout'),
      children: [
        { index: true, lazy: lazyPage(() => import('@/features/dashboard/pages/patient-home-page'), 'PatientHomePage') },
        { path: 'cartao', lazy: lazyPage(() => import('@/features/cards/pages/patient-card-page'), 'PatientCardPage') },
        { path: 'assinatura', lazy: lazyPage(() => import('@/features/subscriptions/pages/patient-subscription-page'), 'PatientSubscriptionPage') },
        { path: 'rede', lazy: lazyPage(() => import('@/features/network/pages/patient-network-page'), 'PatientNetworkPage') },
        { path: 'historico', lazy: lazyPage(() => import('@/features/visits/pages/patient-history-page'), 'PatientHistoryPage') },
        { path: 'perfil', lazy: lazyPage(() => import('@/features/profiles/pages/patient-profile-page'), 'PatientProfilePage') },
        { path: 'meus-dados', lazy: lazyPage(() => import('@/features/my-data/pages/patient-my-data-page'), 'PatientMyDataPage') },
        { path: 'seguranca', lazy: lazyPage(() => import('@/features/passkeys/pages/patient-security-page'), 'PatientSecurityPage') },
        { path: 'app', lazy: lazyPage(() => import('@/features/pwa/pages/patient-install-app-page'), 'PatientInstallAppPage') },
      ],
    },
    // The boleto and the receipt are printed: guarded like the portal, shown without the sidebar.
    { path: 'assinatura/boleto/:id', lazy: lazyPage(() => import('@/features/subscriptions/pages/patient-boleto-page'), 'PatientBoletoPage') },
    { path: 'assinatura/recibo/:id', lazy: lazyPage(() => import('@/features/subscriptions/pages/patient-receipt-page'), 'PatientReceiptPage') },
  ],
};

/**
 * Which site this host is (a clinic's or the platform's) is known before the first screen, so a clinic's visitor never
 * sees the platform's page or colours flash by. A failure is left to the pages: prefetching never throws.
 */
async function loadTenant(): Promise<null> {
  await queryClient.prefetchQuery(tenantQueryOptions);
  return null;
}

export const routes: RouteObject[] = [
  {
    // Shown while the tenant and a lazily loaded route's chunk arrive on a direct visit.
    hydrateFallbackElement: <FullPageSpinner />,
    loader: loadTenant,
    // Later changes (a clinic admin's new colour) reach the pages through the query itself, not by loading again.
    shouldRevalidate: () => false,
    Component: RootLayout,
    children: [
      // The server draws "/" itself (ADR 019); the SPA's copy serves links back to it from inside the app.
      { path: '/', lazy: lazyPage(() => import('./home-page'), 'HomePage') },
      { path: '/auth', lazy: lazyPage(() => import('@/features/auth/pages/auth-page'), 'AuthPage') },
      { path: '/onboarding', lazy: lazyPage(() => import('@/features/onboarding/pages/onboarding-page'), 'OnboardingPage') },
      { path: '/auth/redefinir-senha', lazy: lazyPage(() => import('@/features/auth/pages/reset-password-page'), 'ResetPasswordPage') },
      // A clinic's public price table, on its own site: anyone may read it (issue 25).
      { path: '/precos', lazy: lazyPage(() => import('@/features/services/pages/public-price-table-page'), 'PublicPriceTablePage') },
      // Where a deleted account lands, signed out (ADR 027).
      { path: '/conta-excluida', lazy: lazyPage(() => import('@/features/my-data/pages/account-deleted-page'), 'AccountDeletedPage') },
      { path: '/auth/aceitar-convite', lazy: lazyPage(() => import('@/features/auth/pages/accept-invitation-page'), 'AcceptInvitationPage') },
      adminRoutes,
      clinicRoutes,
      patientRoutes,
      { path: '*', lazy: lazyPage(() => import('@/features/not-found/pages/not-found-page'), 'NotFoundPage') },
    ],
  },
];

export const router = createBrowserRouter(routes);

// Toasts belong to their page: the old page's go when another opens.
dismissToastsOnPageChange(router);
