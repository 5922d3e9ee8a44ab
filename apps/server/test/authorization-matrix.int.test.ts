import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinics } from '../src/db/schema.ts';
import { CALLERS, confirmEmailOf, createCallers, createClinic, createSignedInUser, createTestApp, type Caller, type CallerFixtures, type TestApp } from './helpers.ts';

/**
 * The authorization matrix: every /api route the server registers, called by every kind of caller, against
 * records of clinic A (the callers' own) and clinic B. The expected status of each cell is declared below; a route
 * added without its row fails the suite, and clinic A's people never reach clinic B's records (404, not 403).
 */

type Expected = Record<Caller, number>;

type Fixtures = CallerFixtures;

type Probe = {
  /** The request: path (with ids filled in) and body. */
  request: (f: Fixtures) => { url: string; payload?: Record<string, unknown> };
  expected: Expected;
  /** Same route against clinic B's record, for routes that take a tenant-owned id. */
  crossTenant?: { request: (f: Fixtures) => { url: string }; expected: Expected };
  /**
   * The probe changes the caller (onboarding gives a role): the no-role caller is a fresh account for it, with its
   * e-mail confirmed (onboarding asks for that first, ADR 006; tenancy.int.test.ts covers the unconfirmed account).
   */
  freshNoRole?: boolean;
};

const ALL = (status: number): Expected => ({ anonymous: status, noRole: status, patientA: status, staffA: status, clinicAdminA: status, admin: status });
const SIGNED_IN = (status: number): Expected => ({ ...ALL(status), anonymous: 401 });
const ONLY = (status: number, allowed: Caller[]): Expected => {
  const row = { ...ALL(403), anonymous: 401 };
  for (const caller of allowed) row[caller] = status;
  return row;
};

const MATRIX: Record<string, Probe> = {
  'GET /api/health': { request: () => ({ url: '/api/health' }), expected: ALL(200) },
  'GET /api/ready': { request: () => ({ url: '/api/ready' }), expected: ALL(200) },
  'GET /api/tenant': { request: () => ({ url: '/api/tenant' }), expected: ALL(200) },
  'GET /api/app/manifest.webmanifest': { request: () => ({ url: '/api/app/manifest.webmanifest' }), expected: ALL(200) },
  'GET /api/app/icons/:size.png': { request: () => ({ url: '/api/app/icons/192.png' }), expected: ALL(200) },
  'GET /api/public/clinics': { request: () => ({ url: '/api/public/clinics?q=cl' }), expected: ALL(200) },
  'GET /api/public/plans': { request: () => ({ url: '/api/public/plans' }), expected: ALL(200) },
  // The "Aceitar convite" page: the link's token is the key; without a valid one nobody learns anything.
  'GET /api/public/invitation': { request: () => ({ url: '/api/public/invitation?token=nao-existe' }), expected: ALL(404) },
  'GET /api/auth/*': { request: () => ({ url: '/api/auth/get-session' }), expected: ALL(200) },
  'POST /api/auth/*': {
    request: () => ({ url: '/api/auth/sign-in/email', payload: { email: 'ninguem@teste.dev', password: 'senha-errada' } }),
    expected: ALL(401),
  },
  'GET /api/me': { request: () => ({ url: '/api/me' }), expected: SIGNED_IN(200) },
  // The test app runs with CAPTCHA=off: there is no challenge to hand out (captcha.int.test.ts turns it on).
  'GET /api/captcha/challenge': { request: () => ({ url: '/api/captcha/challenge' }), expected: ALL(404) },
  // Segurança: everyone signed in manages their own passkeys (ADR 029); a stranger's id is simply not found.
  'GET /api/passkeys': { request: () => ({ url: '/api/passkeys' }), expected: SIGNED_IN(200) },
  'GET /api/passkeys/registration-options': { request: () => ({ url: '/api/passkeys/registration-options' }), expected: SIGNED_IN(200) },
  'POST /api/passkeys': { request: () => ({ url: '/api/passkeys', payload: { name: 'Chave', response: {} } }), expected: SIGNED_IN(400) },
  'DELETE /api/passkeys/:id': { request: () => ({ url: '/api/passkeys/00000000-0000-4000-8000-000000000000' }), expected: SIGNED_IN(404) },
  // The session probe answers a signed-out visitor with null rather than a 401.
  'GET /api/session': { request: () => ({ url: '/api/session' }), expected: ALL(200) },
  'POST /api/onboarding/clinic': {
    request: () => ({ url: '/api/onboarding/clinic', payload: { name: 'Clínica da Matriz', cnpj: '11.444.777/0001-61', slug: 'matriz' } }),
    expected: { ...SIGNED_IN(409), noRole: 201 },
    freshNoRole: true,
  },
  'GET /api/admin/clinics': { request: () => ({ url: '/api/admin/clinics' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/clinics/:id': {
    request: (f) => ({ url: `/api/admin/clinics/${f.clinicA}` }),
    expected: ONLY(200, ['admin']),
    crossTenant: { request: (f) => ({ url: `/api/admin/clinics/${f.clinicB}` }), expected: ONLY(200, ['admin']) },
  },
  'GET /api/admin/outbox': { request: () => ({ url: '/api/admin/outbox' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/clinics/summary': { request: () => ({ url: '/api/admin/clinics/summary' }), expected: ONLY(200, ['admin']) },
  'POST /api/admin/clinics': {
    // An empty form: only the admin gets as far as validation.
    request: () => ({ url: '/api/admin/clinics', payload: {} }),
    expected: ONLY(400, ['admin']),
  },
  'PUT /api/admin/clinics/:id': {
    request: (f) => ({ url: `/api/admin/clinics/${f.clinicA}`, payload: {} }),
    expected: ONLY(400, ['admin']),
  },
  'DELETE /api/admin/clinics/:id': {
    // Clinic A has a patient: even the admin is refused, with a reason.
    request: (f) => ({ url: `/api/admin/clinics/${f.clinicA}` }),
    expected: ONLY(409, ['admin']),
  },
  'POST /api/admin/clinics/:id/approve': {
    request: () => ({ url: `/api/admin/clinics/00000000-0000-4000-8000-000000000000/approve` }),
    expected: ONLY(404, ['admin']),
  },
  // Repasses (issue 26); a clinic reaching another clinic's payout is payouts.int.test.ts's (404).
  'GET /api/admin/payouts': { request: () => ({ url: '/api/admin/payouts?status=pendente' }), expected: ONLY(200, ['admin']) },
  'POST /api/admin/payouts/:id/status': {
    request: () => ({ url: '/api/admin/payouts/00000000-0000-4000-8000-000000000000/status', payload: { status: 'pago' } }),
    expected: ONLY(404, ['admin']),
  },
  'GET /api/clinic/payouts': { request: () => ({ url: '/api/clinic/payouts' }), expected: ONLY(200, ['clinicAdminA']) },
  'GET /api/clinic/payouts/:id': { request: () => ({ url: '/api/clinic/payouts/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['clinicAdminA']) },
  'GET /api/admin/settings': { request: () => ({ url: '/api/admin/settings' }), expected: ONLY(200, ['admin']) },
  'PUT /api/admin/settings': { request: () => ({ url: '/api/admin/settings', payload: {} }), expected: ONLY(400, ['admin']) },
  'POST /api/admin/settings/smtp-test': {
    // No server typed: only the admin gets as far as being told to fill it in.
    request: () => ({ url: '/api/admin/settings/smtp-test', payload: { smtpHost: '', smtpPort: 587 } }),
    expected: ONLY(400, ['admin']),
  },
  'POST /api/admin/backups': { request: () => ({ url: '/api/admin/backups' }), expected: ONLY(201, ['admin']) },
  'GET /api/admin/plans': { request: () => ({ url: '/api/admin/plans' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/plans/summary': { request: () => ({ url: '/api/admin/plans/summary' }), expected: ONLY(200, ['admin']) },
  'POST /api/admin/plans': { request: () => ({ url: '/api/admin/plans', payload: {} }), expected: ONLY(400, ['admin']) },
  'PUT /api/admin/plans/:id': {
    request: () => ({ url: '/api/admin/plans/00000000-0000-4000-8000-000000000000', payload: { name: 'X', price: 1, features: ['a'] } }),
    expected: ONLY(404, ['admin']),
  },
  'DELETE /api/admin/plans/:id': {
    request: () => ({ url: '/api/admin/plans/00000000-0000-4000-8000-000000000000' }),
    expected: ONLY(404, ['admin']),
  },
  'GET /api/admin/users': { request: () => ({ url: '/api/admin/users' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/users/counts': { request: () => ({ url: '/api/admin/users/counts' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/users/:id': {
    request: () => ({ url: '/api/admin/users/00000000-0000-4000-8000-000000000000' }),
    expected: ONLY(404, ['admin']),
  },
  'POST /api/admin/users/:userId/invitation': {
    request: () => ({ url: '/api/admin/users/00000000-0000-4000-8000-000000000000/invitation' }),
    expected: ONLY(404, ['admin']),
  },
  'POST /api/admin/user-roles': { request: () => ({ url: '/api/admin/user-roles', payload: {} }), expected: ONLY(400, ['admin']) },
  'PUT /api/admin/user-roles/:userId': {
    request: () => ({ url: '/api/admin/user-roles/00000000-0000-4000-8000-000000000000', payload: { role: 'admin' } }),
    expected: ONLY(404, ['admin']),
  },
  'DELETE /api/admin/user-roles/:userId': {
    request: () => ({ url: '/api/admin/user-roles/00000000-0000-4000-8000-000000000000' }),
    expected: ONLY(404, ['admin']),
  },
  'GET /api/admin/dashboard': { request: () => ({ url: '/api/admin/dashboard' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/reports/summary': { request: () => ({ url: '/api/admin/reports/summary' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/reports/:kind.csv': { request: () => ({ url: '/api/admin/reports/clinicas.csv' }), expected: ONLY(200, ['admin']) },
  'GET /api/admin/reports/:kind': { request: () => ({ url: '/api/admin/reports/planos' }), expected: ONLY(200, ['admin']) },
  'GET /api/clinic': { request: () => ({ url: '/api/clinic' }), expected: ONLY(200, ['staffA', 'clinicAdminA']) },
  'GET /api/clinic/branding': { request: () => ({ url: '/api/clinic/branding' }), expected: ONLY(200, ['staffA', 'clinicAdminA']) },
  'PATCH /api/clinic/branding': {
    request: () => ({ url: '/api/clinic/branding', payload: { displayName: 'Clínica A', primaryColor: '#112233' } }),
    expected: ONLY(200, ['clinicAdminA']),
  },
  'POST /api/clinic/branding/logo': {
    // JSON instead of a file: the allowed caller passes the guard and meets the upload's body rule (415, ADR 009);
    // everyone else is stopped before it.
    request: () => ({ url: '/api/clinic/branding/logo', payload: {} }),
    expected: ONLY(415, ['clinicAdminA']),
  },
  // The clinic's own tenant only (no id in the path); the Asaas key is the clinic admin's alone.
  'GET /api/clinic/billing-settings': { request: () => ({ url: '/api/clinic/billing-settings' }), expected: ONLY(200, ['clinicAdminA']) },
  'PUT /api/clinic/billing-settings': { request: () => ({ url: '/api/clinic/billing-settings', payload: { graceDays: 5 } }), expected: ONLY(200, ['clinicAdminA']) },
  'GET /api/clinic/subscription-plans': { request: () => ({ url: '/api/clinic/subscription-plans' }), expected: ONLY(200, ['staffA', 'clinicAdminA']) },
  'GET /api/clinic/subscription-plans/:id': {
    request: (f) => ({ url: `/api/clinic/subscription-plans/${f.planA}` }),
    expected: ONLY(200, ['staffA', 'clinicAdminA']),
    crossTenant: { request: (f) => ({ url: `/api/clinic/subscription-plans/${f.planB}` }), expected: ONLY(404, ['staffA', 'clinicAdminA']) },
  },
  'GET /api/patient/subscription': { request: () => ({ url: '/api/patient/subscription' }), expected: ONLY(200, ['patientA']) },
  'GET /api/patient/profile': { request: () => ({ url: '/api/patient/profile' }), expected: ONLY(200, ['patientA']) },
  // Issue 27, Meu Perfil: the patient's own data (no id in the path); an empty body meets the form's rules (400), and
  // JSON instead of a photo the upload's body rule (415).
  'PATCH /api/patient/profile': { request: () => ({ url: '/api/patient/profile', payload: {} }), expected: ONLY(400, ['patientA']) },
  'POST /api/patient/profile/photo': { request: () => ({ url: '/api/patient/profile/photo', payload: {} }), expected: ONLY(415, ['patientA']) },
  // Issue 27, the holder's dependents: an empty body meets the form's rules (400), an unknown id is nobody's (404);
  // the ownership of real ones (another patient's, another clinic's) is in dependents.int.test.ts.
  'GET /api/patient/dependents': { request: () => ({ url: '/api/patient/dependents' }), expected: ONLY(200, ['patientA']) },
  'POST /api/patient/dependents': { request: () => ({ url: '/api/patient/dependents', payload: {} }), expected: ONLY(400, ['patientA']) },
  'PATCH /api/patient/dependents/:id': {
    request: () => ({ url: '/api/patient/dependents/00000000-0000-4000-8000-000000000000', payload: { fullName: 'Maria Souza', birthDate: '2015-03-09', relationship: 'child' } }),
    expected: ONLY(404, ['patientA']),
  },
  'DELETE /api/patient/dependents/:id': { request: () => ({ url: '/api/patient/dependents/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['patientA']) },
  'GET /api/patient/subscription-plans': { request: () => ({ url: '/api/patient/subscription-plans' }), expected: ONLY(200, ['patientA']) },
  // Issue 27, the change of plan: the patient's own subscription (no id in the path). An empty body meets the form's
  // rules (400), and with no change pending there is none to give up (404); ownership is in plan-change.int.test.ts.
  'GET /api/patient/plan-change': { request: () => ({ url: '/api/patient/plan-change' }), expected: ONLY(200, ['patientA']) },
  'POST /api/patient/plan-change': { request: () => ({ url: '/api/patient/plan-change', payload: {} }), expected: ONLY(400, ['patientA']) },
  'DELETE /api/patient/plan-change': { request: () => ({ url: '/api/patient/plan-change' }), expected: ONLY(404, ['patientA']) },
  // The automatic renewal switch: patientA has no paid subscription, so neither way applies (409).
  // Meu Perfil › Notificações (issue 29): the patient's own browsers; another's id is simply not found.
  'GET /api/patient/push': { request: () => ({ url: '/api/patient/push' }), expected: ONLY(200, ['patientA']) },
  'POST /api/patient/push/subscriptions': { request: () => ({ url: '/api/patient/push/subscriptions', payload: { endpoint: 'https://fcm.googleapis.com/fcm/send/x' } }), expected: ONLY(400, ['patientA']) },
  'DELETE /api/patient/push/subscriptions/:id': { request: () => ({ url: '/api/patient/push/subscriptions/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['patientA']) },
  'PUT /api/patient/subscription/auto-renewal': { request: () => ({ url: '/api/patient/subscription/auto-renewal', payload: { enabled: false } }), expected: ONLY(409, ['patientA']) },
  // Issue 14: plans and terms are the clinic admin's to write (staff read plans); the money routes are the patient's.
  'POST /api/clinic/subscription-plans': { request: () => ({ url: '/api/clinic/subscription-plans', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  'PUT /api/clinic/subscription-plans/:id': { request: (f) => ({ url: `/api/clinic/subscription-plans/${f.planA}`, payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  'GET /api/clinic/terms': { request: () => ({ url: '/api/clinic/terms' }), expected: ONLY(200, ['clinicAdminA']) },
  'PUT /api/clinic/terms': { request: () => ({ url: '/api/clinic/terms', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  // Issue 27: Início and Histórico, the patient's own visits and savings.
  'GET /api/patient/home': { request: () => ({ url: '/api/patient/home' }), expected: ONLY(200, ['patientA']) },
  'GET /api/patient/history': { request: () => ({ url: '/api/patient/history?from=2026-01-01&to=2026-12-31' }), expected: ONLY(200, ['patientA']) },
  'GET /api/patient/history/summary': { request: () => ({ url: '/api/patient/history/summary' }), expected: ONLY(200, ['patientA']) },
  // Issue 27, Meus Dados (ADR 027): the patient's own data (no id in the path); the deletion without its typed
  // confirmation meets the body's rule (400), so the probe deletes no one.
  'GET /api/patient/my-data/export.json': { request: () => ({ url: '/api/patient/my-data/export.json' }), expected: ONLY(200, ['patientA']) },
  'GET /api/patient/my-data/export.html': { request: () => ({ url: '/api/patient/my-data/export.html' }), expected: ONLY(200, ['patientA']) },
  'GET /api/patient/my-data/card-access': { request: () => ({ url: '/api/patient/my-data/card-access' }), expected: ONLY(200, ['patientA']) },
  'POST /api/patient/my-data/deletion': { request: () => ({ url: '/api/patient/my-data/deletion', payload: {} }), expected: ONLY(400, ['patientA']) },
  'GET /api/patient/terms': { request: () => ({ url: '/api/patient/terms' }), expected: ONLY(200, ['patientA']) },
  'POST /api/patient/subscriptions': { request: () => ({ url: '/api/patient/subscriptions', payload: {} }), expected: ONLY(400, ['patientA']) },
  'GET /api/patient/payments': { request: () => ({ url: '/api/patient/payments' }), expected: ONLY(200, ['patientA']) },
  'GET /api/patient/payments/:id': { request: () => ({ url: '/api/patient/payments/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['patientA']) },
  'PUT /api/patient/subscription/payment-method': { request: () => ({ url: '/api/patient/subscription/payment-method', payload: {} }), expected: ONLY(400, ['patientA']) },
  // Patient A has no subscription: there is nothing to cancel (409, in pt-BR).
  'GET /api/patient/subscription/cancellation': { request: () => ({ url: '/api/patient/subscription/cancellation' }), expected: ONLY(409, ['patientA']) },
  'POST /api/patient/subscription/cancel': { request: () => ({ url: '/api/patient/subscription/cancel', payload: {} }), expected: ONLY(409, ['patientA']) },
  // Local provider only, and only the caller's own open charge: an unknown id is 404 (in pt-BR).
  'POST /api/patient/payments/:id/simulate': { request: () => ({ url: '/api/patient/payments/00000000-0000-4000-8000-000000000000/simulate', payload: {} }), expected: ONLY(404, ['patientA']) },
  // Issue 15. Patient A has no card: the list is empty; a card id that is not theirs is 404 (never 403).
  'GET /api/patient/cards': { request: () => ({ url: '/api/patient/cards' }), expected: ONLY(200, ['patientA']) },
  'GET /api/patient/cards/:id/token': { request: () => ({ url: '/api/patient/cards/00000000-0000-4000-8000-000000000000/token' }), expected: ONLY(404, ['patientA']) },
  'GET /api/patient/cards/:id/image': { request: () => ({ url: '/api/patient/cards/00000000-0000-4000-8000-000000000000/image' }), expected: ONLY(404, ['patientA']) },
  // The offline card's devices (issue 29): another patient's or clinic's device is a 404 (card-devices.int.test.ts).
  'GET /api/patient/card-devices': { request: () => ({ url: '/api/patient/card-devices' }), expected: ONLY(200, ['patientA']) },
  'POST /api/patient/card-devices': { request: () => ({ url: '/api/patient/card-devices', payload: {} }), expected: ONLY(400, ['patientA']) },
  'POST /api/patient/card-devices/:id/check-in': { request: () => ({ url: '/api/patient/card-devices/00000000-0000-4000-8000-000000000000/check-in' }), expected: ONLY(404, ['patientA']) },
  'DELETE /api/patient/card-devices/:id': { request: () => ({ url: '/api/patient/card-devices/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['patientA']) },
  // Validation always answers 200 (valid true/false) to the clinic's team; a patient or an admin is refused.
  'POST /api/clinic/card-validations': { request: () => ({ url: '/api/clinic/card-validations', payload: { cardToken: 'C1.8076000000000000.12345678' } }), expected: ONLY(200, ['staffA', 'clinicAdminA']) },
  'GET /api/clinic/services': { request: () => ({ url: '/api/clinic/services' }), expected: ONLY(200, ['staffA', 'clinicAdminA']) },
  'POST /api/clinic/services': { request: () => ({ url: '/api/clinic/services', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  'GET /api/clinic/visits': { request: () => ({ url: '/api/clinic/visits' }), expected: ONLY(200, ['staffA', 'clinicAdminA']) },
  'POST /api/clinic/visits': { request: () => ({ url: '/api/clinic/visits', payload: {} }), expected: ONLY(400, ['staffA', 'clinicAdminA']) },
  // Issues 22 and 25: a visit moves on (or is cancelled with a reason); a visit that is not the clinic's is 404.
  'PATCH /api/clinic/visits/:id/status': {
    request: () => ({ url: '/api/clinic/visits/00000000-0000-4000-8000-000000000000/status', payload: { status: 'em_andamento' } }),
    expected: ONLY(404, ['staffA', 'clinicAdminA']),
  },
  // Issue 25: 'Exportar' with nothing to export is a 404 in pt-BR; 'Registrado por' lists the clinic's team.
  'GET /api/clinic/visits.csv': { request: () => ({ url: '/api/clinic/visits.csv' }), expected: ONLY(404, ['staffA', 'clinicAdminA']) },
  'GET /api/clinic/visits/registrars': { request: () => ({ url: '/api/clinic/visits/registrars' }), expected: ONLY(200, ['staffA', 'clinicAdminA']) },
  // Issue 25: Serviços is the clinic admin's; the receptionist reads the list only (to pick a service for a visit).
  'PUT /api/clinic/services/:id': { request: () => ({ url: '/api/clinic/services/00000000-0000-4000-8000-000000000000', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  'DELETE /api/clinic/services/:id': { request: () => ({ url: '/api/clinic/services/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['clinicAdminA']) },
  'POST /api/clinic/services/:id/restore': { request: () => ({ url: '/api/clinic/services/00000000-0000-4000-8000-000000000000/restore', payload: {} }), expected: ONLY(404, ['clinicAdminA']) },
  'GET /api/clinic/services/:id/price-history': { request: () => ({ url: '/api/clinic/services/00000000-0000-4000-8000-000000000000/price-history' }), expected: ONLY(404, ['clinicAdminA']) },
  // The public price table is only on a clinic's own site: the platform's host has none (404 for everyone).
  'GET /api/public/price-table': { request: () => ({ url: '/api/public/price-table' }), expected: ALL(404) },
  // Issue 25: the clinic's Dashboard figures and first steps are its admin's; the platform's MRR history the admin's.
  'GET /api/clinic/dashboard': { request: () => ({ url: '/api/clinic/dashboard' }), expected: ONLY(200, ['clinicAdminA']) },
  'GET /api/clinic/dashboard/charts': { request: () => ({ url: '/api/clinic/dashboard/charts' }), expected: ONLY(200, ['clinicAdminA']) },
  'GET /api/clinic/first-steps': { request: () => ({ url: '/api/clinic/first-steps' }), expected: ONLY(200, ['clinicAdminA']) },
  'GET /api/admin/dashboard/mrr-history': { request: () => ({ url: '/api/admin/dashboard/mrr-history' }), expected: ONLY(200, ['admin']) },
  // Issue 25: Configurações of the caller's own clinic (the id is the session's); an empty body is 400.
  'GET /api/clinic/settings': { request: () => ({ url: '/api/clinic/settings' }), expected: ONLY(200, ['clinicAdminA']) },
  'PUT /api/clinic/settings': { request: () => ({ url: '/api/clinic/settings', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  // Issue 26: Pacientes is the clinic admin's; a person who is not the clinic's patient is 404.
  'GET /api/clinic/network': { request: () => ({ url: '/api/clinic/network' }), expected: ONLY(200, ['clinicAdminA']) },
  'POST /api/clinic/network': { request: () => ({ url: '/api/clinic/network', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  'PUT /api/clinic/network/:id': { request: () => ({ url: '/api/clinic/network/00000000-0000-4000-8000-000000000000', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  'DELETE /api/clinic/network/:id': { request: () => ({ url: '/api/clinic/network/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['clinicAdminA']) },
  'GET /api/patient/network': { request: () => ({ url: '/api/patient/network' }), expected: ONLY(200, ['patientA']) },
  'GET /api/clinic/members': { request: () => ({ url: '/api/clinic/members' }), expected: ONLY(200, ['clinicAdminA']) },
  'GET /api/clinic/members/:userId': { request: () => ({ url: '/api/clinic/members/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['clinicAdminA']) },
  // 'Importar CSV': the clinic admin's own plan previews; clinic B's plan is not one clinic A can enrol people in
  // (member-import.int.test.ts), and an empty confirmation is refused before anything is read.
  'POST /api/clinic/member-imports/preview': {
    request: (f) => ({
      url: '/api/clinic/member-imports/preview',
      payload: { planId: f.planA, payer: 'person', companyName: 'Empresa da Matriz', cnpj: '11.444.777/0001-61', validUntil: null, fileBase64: Buffer.from('nome;cpf;email\nAna Matriz;52998224725;ana.matriz@empresa.test').toString('base64') },
    }),
    expected: ONLY(200, ['clinicAdminA']),
  },
  'POST /api/clinic/member-imports': { request: () => ({ url: '/api/clinic/member-imports', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  // Issue 25: Equipe is the clinic admin's; another clinic's member (or nobody) is 404.
  'GET /api/clinic/team': { request: () => ({ url: '/api/clinic/team' }), expected: ONLY(200, ['clinicAdminA']) },
  'POST /api/clinic/team': { request: () => ({ url: '/api/clinic/team', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  'PUT /api/clinic/team/:userId/role': { request: () => ({ url: '/api/clinic/team/00000000-0000-4000-8000-000000000000/role', payload: { role: 'clinic_staff' } }), expected: ONLY(404, ['clinicAdminA']) },
  'DELETE /api/clinic/team/:userId': { request: () => ({ url: '/api/clinic/team/00000000-0000-4000-8000-000000000000' }), expected: ONLY(404, ['clinicAdminA']) },
  'POST /api/clinic/team/:userId/invitation': { request: () => ({ url: '/api/clinic/team/00000000-0000-4000-8000-000000000000/invitation', payload: {} }), expected: ONLY(404, ['clinicAdminA']) },
  // Issue 22: moving a CPF to its real owner is the clinic admin's (after checking a document); an empty body is 400.
  'POST /api/clinic/cpf-claims': { request: () => ({ url: '/api/clinic/cpf-claims', payload: {} }), expected: ONLY(400, ['clinicAdminA']) },
  // The provider's webhook: no session counts, only the asaas-access-token header (absent here → 401 for everyone).
  'POST /api/webhooks/asaas': { request: () => ({ url: '/api/webhooks/asaas', payload: { id: 'evt_matriz', event: 'PAYMENT_RECEIVED' } }), expected: ALL(401) },
  // Issue 22: a clinic's own webhook, authenticated by that clinic's sealed token only (none here → 401 for everyone).
  'POST /api/webhooks/asaas/clinics/:clinicId': { request: (f) => ({ url: `/api/webhooks/asaas/clinics/${f.clinicA}`, payload: { id: 'evt_matriz', event: 'PAYMENT_RECEIVED' } }), expected: ALL(401) },
};

let t: TestApp;
let fixtures: Fixtures;
const cookies: Partial<Record<Caller, string>> = {};

beforeAll(async () => {
  t = await createTestApp();
  const callers = await createCallers(t);
  fixtures = callers.fixtures;
  Object.assign(cookies, callers.cookies);
});
afterAll(async () => {
  await t.close();
});

async function call(caller: Caller, method: string, url: string, payload?: Record<string, unknown>, cookieOverride?: string) {
  const cookie = cookieOverride ?? cookies[caller];
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...(cookie ? { cookie } : {}), origin: 'http://localhost' },
    ...(payload ? { payload } : {}),
  });
}

describe('authorization matrix', () => {
  it('has exactly one row per registered route', () => {
    const registered = t.app.routeRules.map((rule) => `${rule.method} ${rule.url}`).sort();
    expect(registered).toEqual(Object.keys(MATRIX).sort());
  });

  async function freshConfirmedAccount(): Promise<string> {
    const account = await createSignedInUser(t, null);
    await confirmEmailOf(t, account.userId);
    return account.cookie;
  }

  for (const [route, probe] of Object.entries(MATRIX)) {
    const method = route.split(' ')[0]!;
    it(`${route}: each caller gets the declared answer`, async () => {
      const { url, payload } = probe.request(fixtures);
      const actual: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const fresh = probe.freshNoRole && caller === 'noRole' ? await freshConfirmedAccount() : undefined;
        actual[caller] = (await call(caller, method, url, payload, fresh)).statusCode;
      }
      expect(actual).toEqual(probe.expected);
    });

    const crossTenant = probe.crossTenant;
    if (crossTenant) {
      it(`${route}: clinic B's record is invisible to clinic A`, async () => {
        const { url } = crossTenant.request(fixtures);
        const actual: Partial<Record<Caller, number>> = {};
        for (const caller of CALLERS) actual[caller] = (await call(caller, method, url)).statusCode;
        expect(actual).toEqual(crossTenant.expected);
      });
    }
  }

  it("clinic A's writes never touch clinic B", async () => {
    const [before] = await t.db.select().from(clinics).where(eq(clinics.id, fixtures.clinicB));
    await call('clinicAdminA', 'PATCH', '/api/clinic/branding', { displayName: 'Tentativa', primaryColor: '#000000' });
    const [after] = await t.db.select().from(clinics).where(eq(clinics.id, fixtures.clinicB));
    expect(after).toEqual(before);
  });
});

/**
 * ADR 010 in the matrix: the same probes, made by the people of a suspended clinic S (on the platform's host). Where
 * their twin of clinic A gets past the guard on a route that needs a permission, they are refused with
 * CLINIC_INACTIVE — except the routes the ADR keeps for that role, listed here; everywhere else both twins get the
 * same answer.
 */
const TWINS = ['patientA', 'staffA', 'clinicAdminA'] as const;
type Twin = (typeof TWINS)[number];
const ROLE_OF_TWIN = { patientA: 'patient', staffA: 'clinic_staff', clinicAdminA: 'clinic_admin' } as const satisfies Record<Twin, string>;
const KEPT_WHILE_SUSPENDED: Record<Twin, readonly string[]> = {
  patientA: [
    'GET /api/patient/subscription',
    // Their own personal data (LGPD's rights of access and rectification).
    'GET /api/patient/profile',
    'PATCH /api/patient/profile',
    'POST /api/patient/profile/photo',
    // The patient's own records and the right to cancel do not depend on the clinic paying the platform (issue 14).
    'GET /api/patient/payments',
    'GET /api/patient/payments/:id',
    'GET /api/patient/subscription/cancellation',
    'POST /api/patient/subscription/cancel',
    // Their dependents' data, its correction, and taking one off (which only lowers what they pay); adding one issues
    // a card of the programme, so it stops with the clinic.
    'GET /api/patient/dependents',
    'PATCH /api/patient/dependents/:id',
    'DELETE /api/patient/dependents/:id',
    // The card stays visible (greyed, issue 15), and its image; its QR token is the programme's and stops.
    'GET /api/patient/cards',
    'GET /api/patient/cards/:id/image',
    // Their offline devices: the list, removing one, and the check-in that tells a device its card no longer validates.
    'GET /api/patient/card-devices',
    'POST /api/patient/card-devices/:id/check-in',
    'DELETE /api/patient/card-devices/:id',
    // Their history and savings (issue 27), and the home that shows them.
    'GET /api/patient/home',
    'GET /api/patient/history',
    'GET /api/patient/history/summary',
    // The LGPD's rights of access and deletion, and the log of who looked up their card (ADR 027).
    'GET /api/patient/my-data/export.json',
    'GET /api/patient/my-data/export.html',
    'GET /api/patient/my-data/card-access',
    'POST /api/patient/my-data/deletion',
    // Which of their browsers receive notices, and turning them off (issue 29): their own devices, not the programme.
    'GET /api/patient/push',
    'POST /api/patient/push/subscriptions',
    'DELETE /api/patient/push/subscriptions/:id',
  ],
  staffA: [],
  clinicAdminA: [],
};

describe('authorization matrix: the people of a suspended clinic', () => {
  const suspendedCookies: Partial<Record<Twin, string>> = {};

  beforeAll(async () => {
    const suspended = await createClinic(t.db, 'Clínica Suspensa');
    await t.db.update(clinics).set({ status: 'suspended' }).where(eq(clinics.id, suspended.clinicId));
    for (const twin of TWINS) suspendedCookies[twin] = (await createSignedInUser(t, ROLE_OF_TWIN[twin], suspended.clinicId)).cookie;
  });

  for (const [route, probe] of Object.entries(MATRIX)) {
    const method = route.split(' ')[0]!;
    it(`${route}: refused with CLINIC_INACTIVE unless ADR 010 keeps it`, async () => {
      const access = t.app.routeRules.find((rule) => `${rule.method} ${rule.url}` === route)?.access;
      const { url, payload } = probe.request(fixtures);
      for (const twin of TWINS) {
        const response = await call(twin, method, url, payload, suspendedCookies[twin]);
        const twinPasses = probe.expected[twin] !== 401 && probe.expected[twin] !== 403;
        const guarded = access !== undefined && access !== 'public' && access !== 'authenticated';
        if (guarded && twinPasses && !KEPT_WHILE_SUSPENDED[twin].includes(route)) {
          expect(response.statusCode, `${twin} ${route}`).toBe(403);
          expect(response.json().error.code, `${twin} ${route}`).toBe('CLINIC_INACTIVE');
        } else {
          expect(response.statusCode, `${twin} ${route}`).toBe(probe.expected[twin]);
        }
      }
    });
  }
});
