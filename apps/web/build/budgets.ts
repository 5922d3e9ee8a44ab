import type { Budget, BudgetRoute, DeferredModule, HeavyCode } from './bundle-budgets.ts';

/**
 * Initial JavaScript (gzip) each screen may load on a first visit (issue 24; README, "The landing page, JavaScript budgets and serving"). Every route the
 * router loads lazily must appear here: the build names any it finds unmeasured. A portal's budget holds for each
 * of its pages, so the list follows `src/app/router.tsx`.
 *
 * These are issue 24's budgets. They hold since the browser runs React's API on Preact (ADR 021): ~100 KiB of
 * preact/compat, React Router, zod, TanStack Query and tailwind-merge come before a line of any page. Never raise
 * one without saying why; `goalKiB` is there for a budget that has to be met in steps.
 */

const SPA = 'index.html';

function portalRoutes(guard: readonly string[], pages: Record<string, string>): BudgetRoute[] {
  return Object.entries(pages).map(([routePath, page]) => ({ path: routePath, page: SPA, lazy: [...guard, page] }));
}

const ROLE_GUARD = 'src/app/role-guard.tsx';
const PERMISSION_GUARD = 'src/app/permission-guard.tsx';

const ADMIN = [ROLE_GUARD, 'src/app/layouts/admin-layout.tsx'];
const CLINIC = [ROLE_GUARD, 'src/app/layouts/clinic-layout.tsx'];
const PATIENT = [ROLE_GUARD, 'src/app/layouts/patient-layout.tsx'];

export const BUDGETS: readonly Budget[] = [
  {
    // Rendered by the server (ADR 019): the template's own scripts, none today.
    name: 'landing',
    maxKiB: 60,
    routes: [{ path: '/', page: 'landing.html', lazy: [] }],
  },
  {
    // Sign-in and the SPA's other public pages.
    name: 'sign-in',
    maxKiB: 150,
    routes: [
      { path: '/auth', page: SPA, lazy: ['src/features/auth/pages/auth-page.tsx'] },
      { path: '/auth/redefinir-senha', page: SPA, lazy: ['src/features/auth/pages/reset-password-page.tsx'] },
      { path: '/auth/aceitar-convite', page: SPA, lazy: ['src/features/auth/pages/accept-invitation-page.tsx'] },
      // A clinic's public price table (issue 25): read by anyone, reached from the landing page by a plain link.
      { path: '/precos', page: SPA, lazy: ['src/features/services/pages/public-price-table-page.tsx'] },
      // Where a deleted account lands, signed out (Meus Dados, ADR 027).
      { path: '/conta-excluida', page: SPA, lazy: ['src/features/my-data/pages/account-deleted-page.tsx'] },
      { path: '/onboarding', page: SPA, lazy: ['src/features/onboarding/pages/onboarding-page.tsx'] },
      // The landing as the SPA draws it: after a link back to "/" inside the app, and for the e-mail confirmation.
      { path: '/ (in the SPA)', page: SPA, lazy: ['src/app/home-page.tsx'] },
      { path: '* (not found)', page: SPA, lazy: ['src/features/not-found/pages/not-found-page.tsx'] },
    ],
  },
  {
    name: 'patient portal',
    maxKiB: 160,
    routes: [
      ...portalRoutes(PATIENT, {
        '/paciente': 'src/features/dashboard/pages/patient-home-page.tsx',
        '/paciente/cartao': 'src/features/cards/pages/patient-card-page.tsx',
        '/paciente/assinatura': 'src/features/subscriptions/pages/patient-subscription-page.tsx',
        '/paciente/rede': 'src/features/network/pages/patient-network-page.tsx',
        '/paciente/historico': 'src/features/visits/pages/patient-history-page.tsx',
        '/paciente/perfil': 'src/features/profiles/pages/patient-profile-page.tsx',
        '/paciente/meus-dados': 'src/features/my-data/pages/patient-my-data-page.tsx',
        '/paciente/seguranca': 'src/features/passkeys/pages/patient-security-page.tsx',
        '/paciente/app': 'src/features/pwa/pages/patient-install-app-page.tsx',
      }),
      ...portalRoutes([ROLE_GUARD], {
        '/paciente/assinatura/boleto/:id': 'src/features/subscriptions/pages/patient-boleto-page.tsx',
        '/paciente/assinatura/recibo/:id': 'src/features/subscriptions/pages/patient-receipt-page.tsx',
      }),
    ],
  },
  {
    name: 'clinic portal',
    maxKiB: 170,
    routes: [
      ...portalRoutes(CLINIC, {
        '/clinica': 'src/features/dashboard/pages/clinic-dashboard-page.tsx',
        '/clinica/validar': 'src/features/cards/pages/clinic-validate-card-page.tsx',
        '/clinica/validar-qrcode': 'src/features/cards/pages/clinic-validate-qrcode-page.tsx',
        '/clinica/atendimentos': 'src/features/visits/pages/clinic-visits-page.tsx',
        '/clinica/seguranca': 'src/features/passkeys/pages/clinic-security-page.tsx',
      }),
      ...portalRoutes([...CLINIC, PERMISSION_GUARD], {
        '/clinica/servicos': 'src/features/services/pages/clinic-services-page.tsx',
        '/clinica/equipe': 'src/features/team/pages/clinic-team-page.tsx',
        '/clinica/pacientes': 'src/features/members/pages/clinic-members-page.tsx',
        '/clinica/pacientes/importar': 'src/features/members/pages/clinic-member-import-page.tsx',
        '/clinica/pacientes/:userId': 'src/features/members/pages/clinic-member-page.tsx',
        '/clinica/rede': 'src/features/network/pages/clinic-network-page.tsx',
        '/clinica/financeiro': 'src/features/payouts/pages/clinic-finance-page.tsx',
        '/clinica/configuracoes': 'src/features/clinics/pages/clinic-settings-page.tsx',
        '/clinica/planos': 'src/features/subscription-plans/pages/clinic-plans-page.tsx',
      }),
    ],
  },
  {
    name: 'admin',
    maxKiB: 200,
    routes: [
      ...portalRoutes(ADMIN, {
        '/admin': 'src/features/dashboard/pages/admin-dashboard-page.tsx',
        '/admin/clinicas': 'src/features/clinics/pages/admin-clinics-page.tsx',
        '/admin/usuarios': 'src/features/users/pages/admin-users-page.tsx',
        '/admin/planos': 'src/features/plans/pages/admin-plans-page.tsx',
        '/admin/relatorios': 'src/features/reports/pages/admin-reports-page.tsx',
        '/admin/repasses': 'src/features/payouts/pages/admin-payouts-page.tsx',
        '/admin/configuracoes': 'src/features/settings/pages/admin-settings-page.tsx',
        '/admin/seguranca': 'src/features/passkeys/pages/admin-security-page.tsx',
      }),
      ...portalRoutes([ROLE_GUARD], {
        '/admin/relatorios/imprimir/:kind': 'src/features/reports/pages/admin-report-print-page.tsx',
      }),
    ],
  },
];

/**
 * Code no route loads before the screen needs it (DESIGN.md §3): the network map, charts, the camera's QR scanner
 * and PDF generation. Each is brought in with `import()` when its screen asks for it (as the QR scanner is, by
 * 'Ativar Câmera'). Listed by the packages that provide them, including those the project may adopt.
 */
export const HEAVY_CODE: readonly HeavyCode[] = [
  { name: 'map', packages: ['leaflet', 'react-leaflet', 'maplibre-gl', 'mapbox-gl', 'ol', '@vis.gl/react-google-maps'] },
  { name: 'charts', packages: ['recharts', 'chart.js', 'react-chartjs-2', 'echarts', 'echarts-for-react', 'victory', 'd3-shape', 'd3-scale'] },
  { name: 'QR scanner', packages: ['@zxing/browser', '@zxing/library', 'html5-qrcode', 'qr-scanner', 'jsqr'] },
  { name: 'PDF', packages: ['jspdf', 'pdfmake', '@react-pdf/renderer', 'pdf-lib', 'pdfjs-dist', 'html2canvas'] },
];

/** What every route loads once it has drawn, not before: measured and printed, not counted in a route's budget. */
export const DEFERRED: readonly DeferredModule[] = [
  { module: 'src/app/toaster.tsx', why: 'sonner: loads when the browser is idle after the first paint, or with the first toast' },
];
