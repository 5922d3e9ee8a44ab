import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clinics, clinicSettings } from '../../db/schema.ts';
import { messages } from '@carteirinha/shared/messages';
import { startAsaasDouble, type AsaasDouble } from '../../../test/asaas-double.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';
import { createClinicAsaasKeyBox, merchantAccountFor } from './providers/index.ts';

/** createTestApp's auth secret: the key box derives its key from it. */
const TEST_AUTH_SECRET = 'test-secret-that-is-long-enough-0123456789';
const ASAAS_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmNsaW5pY2EtYQ==';
/** The wallet the Asaas double answers for ASAAS_KEY (GET /wallets/). */
const WALLET = '0b763922-aa88-4cbe-a567-e3fe8511fa06';
/** A wallet typed by hand: a checked key's own wallet wins over it. */
const TYPED_WALLET = '5f0e3b1c-8d2a-4e6f-9a7b-1c2d3e4f5a6b';

const lines: string[] = [];
const logStream = { write: (line: string) => void lines.push(line) };

let asaas: AsaasDouble;
let t: TestApp;
let clinicA: string;
let clinicB: string;
let adminA: string;
let adminB: string;
let staffA: string;
let patientA: string;

beforeAll(async () => {
  asaas = await startAsaasDouble({ apiKey: ASAAS_KEY, walletId: WALLET });
  // PAYMENT_PROVIDER is left at its default, 'local': the key is still checked at Asaas (see the test below).
  t = await createTestApp({ LOG_LEVEL: 'info', ASAAS_BASE_URL: asaas.baseUrl }, { logStream });
  clinicA = (await createClinic(t.db, 'Clínica Cobrança A')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Cobrança B')).clinicId;
  adminA = (await createSignedInUser(t, 'clinic_admin', clinicA)).cookie;
  adminB = (await createSignedInUser(t, 'clinic_admin', clinicB)).cookie;
  staffA = (await createSignedInUser(t, 'clinic_staff', clinicA)).cookie;
  patientA = (await createSignedInUser(t, 'patient', clinicA)).cookie;
});
afterAll(async () => {
  await t.close();
  await asaas.close();
});

const read = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/clinic/billing-settings', headers: { cookie } });
const save = (cookie: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/clinic/billing-settings', headers: { cookie, origin: PUBLIC_URL }, payload });

async function rowOf(clinicId: string) {
  const [row] = await t.db.select().from(clinicSettings).where(eq(clinicSettings.clinicId, clinicId));
  return row ?? null;
}

describe('GET/PUT /api/clinic/billing-settings', () => {
  it('answers the defaults before anything is saved: 5 days of grace, no Asaas account', async () => {
    const response = await read(adminA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ graceDays: 5, asaasConnected: false, asaasWalletId: null });
  });

  it('connects an Asaas key after checking it at Asaas (GET /wallets/), keeps the wallet Asaas answers, seals the key and never answers or logs it', async () => {
    const checks = asaas.requestsTo('GET', '/wallets/').length;
    const saved = await save(adminA, { graceDays: 10, asaasApiKey: `  ${ASAAS_KEY} `, asaasWalletId: TYPED_WALLET });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ graceDays: 10, asaasConnected: true, asaasWalletId: WALLET });
    const sent = asaas.requestsTo('GET', '/wallets/').slice(checks);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.access_token).toBe(ASAAS_KEY);
    const row = await rowOf(clinicA);
    expect(row?.asaasApiKeyEncrypted).toMatch(/^v1\./);
    expect(row?.asaasApiKeyEncrypted).not.toContain(ASAAS_KEY);
    const account = await merchantAccountFor(t.db, createClinicAsaasKeyBox(TEST_AUTH_SECRET), clinicA);
    expect(account).toEqual({ clinicId: clinicA, apiKey: ASAAS_KEY, merchantName: 'Clínica Cobrança A', merchantCity: 'BRASIL' });

    const again = await read(adminA);
    expect(again.json()).toEqual({ graceDays: 10, asaasConnected: true, asaasWalletId: WALLET });
    expect(again.body).not.toContain('aact');
    expect(lines.join('\n')).not.toContain(ASAAS_KEY);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, 'clinic.billing_settings_updated'));
    expect(audit.some((entry) => entry.clinicId === clinicA && entry.details?.asaasKey === 'connected' && entry.details.asaasKeyChecked === true && entry.details.asaasWalletId === WALLET)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(ASAAS_KEY);
  });

  it('refuses a key Asaas refuses with a pt-BR 422, and an unreachable Asaas with a pt-BR 503, changing nothing', async () => {
    const before = await rowOf(clinicA);
    const audits = (await t.db.select().from(auditLog).where(eq(auditLog.clinicId, clinicA))).length;
    const refused = await save(adminA, { graceDays: 30, asaasApiKey: '$aact_hmlg_chave_que_o_asaas_nao_conhece_0000' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: { code: 'PAYMENT_REJECTED', message: messages.billingSettings.asaasKeyRefused } });

    for (const status of [500, 503, 429]) {
      asaas.failNext({ status, path: '/wallets' });
      const down = await save(adminA, { graceDays: 30, asaasApiKey: ASAAS_KEY });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ error: { code: 'PAYMENT_PROVIDER_UNAVAILABLE', message: messages.billingSettings.asaasUnreachable } });
    }
    expect(await rowOf(clinicA)).toEqual(before);
    expect((await t.db.select().from(auditLog).where(eq(auditLog.clinicId, clinicA))).length).toBe(audits);
    expect(lines.join('\n')).toContain('clinic.asaas_key_check_failed');
    expect(lines.join('\n')).not.toContain('chave_que_o_asaas_nao_conhece');
  });

  it('with PAYMENT_PROVIDER=local (the default here) a key is still checked at Asaas, the only place it is used; saving the grace alone or disconnecting never calls Asaas', async () => {
    const checks = asaas.requests.length;
    const kept = await save(adminA, { graceDays: 0 });
    expect(kept.json()).toEqual({ graceDays: 0, asaasConnected: true, asaasWalletId: WALLET });
    const cleared = await save(adminA, { graceDays: 60, asaasApiKey: '', asaasWalletId: null });
    expect(cleared.json()).toEqual({ graceDays: 60, asaasConnected: false, asaasWalletId: null });
    expect((await rowOf(clinicA))?.asaasApiKeyEncrypted).toBeNull();
    expect((await merchantAccountFor(t.db, createClinicAsaasKeyBox(TEST_AUTH_SECRET), clinicA)).apiKey).toBeNull();
    expect(asaas.requests.length).toBe(checks);
    expect(t.config.payments.provider).toBe('local');
  });

  it('refuses a grace period outside 0–60, a malformed wallet or key in pt-BR, writing nothing', async () => {
    const before = await rowOf(clinicA);
    for (const graceDays of [-1, 61, 2.5, '5', null]) {
      const response = await save(adminA, { graceDays, asaasApiKey: ASAAS_KEY });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'A carência deve ficar entre 0 e 60 dias.' } });
    }
    const wallet = await save(adminA, { graceDays: 5, asaasWalletId: 'carteira' });
    expect(wallet.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Identificador de carteira (walletId) inválido.' } });
    for (const asaasApiKey of ['curta', 'chave com espaços no meio de tudo', 42]) {
      const key = await save(adminA, { graceDays: 5, asaasApiKey });
      expect(key.statusCode).toBe(400);
      expect(key.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Chave de API do Asaas inválida.' } });
    }
    expect(await rowOf(clinicA)).toEqual(before);
  });

  it('is the clinic admin’s alone, and each clinic sees and changes only its own settings', async () => {
    expect((await read(staffA)).statusCode).toBe(403);
    expect((await read(patientA)).statusCode).toBe(403);
    expect((await save(staffA, { graceDays: 1, asaasApiKey: ASAAS_KEY })).statusCode).toBe(403);
    const before = await rowOf(clinicA);

    const savedB = await save(adminB, { graceDays: 15, asaasApiKey: ASAAS_KEY });
    expect(savedB.json()).toEqual({ graceDays: 15, asaasConnected: true, asaasWalletId: WALLET });
    expect(await rowOf(clinicA)).toEqual(before);
    expect((await read(adminA)).json()).toEqual({ graceDays: 60, asaasConnected: false, asaasWalletId: null });
    expect((await merchantAccountFor(t.db, createClinicAsaasKeyBox(TEST_AUTH_SECRET), clinicB)).apiKey).toBe(ASAAS_KEY);
  });

  it('names the clinic as the payer sees it: display name and city', async () => {
    await t.db.update(clinics).set({ displayName: 'Saúde Já', city: 'Campinas' }).where(eq(clinics.id, clinicB));
    const account = await merchantAccountFor(t.db, createClinicAsaasKeyBox(TEST_AUTH_SECRET), clinicB);
    expect(account).toMatchObject({ merchantName: 'Saúde Já', merchantCity: 'Campinas' });
    // Sealed under another auth secret (rotated): a pt-BR 503, never a crash or the sealed text.
    await expect(merchantAccountFor(t.db, createClinicAsaasKeyBox('another-secret-that-is-long-enough-987654'), clinicB)).rejects.toMatchObject({
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
    });
  });
});
