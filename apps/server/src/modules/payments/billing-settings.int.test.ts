import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clinics, clinicSettings } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';
import { createClinicAsaasKeyBox, merchantAccountFor } from './providers/index.ts';

/** createTestApp's auth secret: the key box derives its key from it. */
const TEST_AUTH_SECRET = 'test-secret-that-is-long-enough-0123456789';
const ASAAS_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmNsaW5pY2EtYQ==';
const WALLET = '0b763922-aa88-4cbe-a567-e3fe8511fa06';

const lines: string[] = [];
const logStream = { write: (line: string) => void lines.push(line) };

let t: TestApp;
let clinicA: string;
let clinicB: string;
let adminA: string;
let adminB: string;
let staffA: string;
let patientA: string;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream });
  clinicA = (await createClinic(t.db, 'Clínica Cobrança A')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Cobrança B')).clinicId;
  adminA = (await createSignedInUser(t, 'clinic_admin', clinicA)).cookie;
  adminB = (await createSignedInUser(t, 'clinic_admin', clinicB)).cookie;
  staffA = (await createSignedInUser(t, 'clinic_staff', clinicA)).cookie;
  patientA = (await createSignedInUser(t, 'patient', clinicA)).cookie;
});
afterAll(() => t.close());

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

  it('connects an Asaas key sealed in the database, and never answers or logs it', async () => {
    const saved = await save(adminA, { graceDays: 10, asaasApiKey: `  ${ASAAS_KEY} `, asaasWalletId: WALLET });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ graceDays: 10, asaasConnected: true, asaasWalletId: WALLET });
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
    expect(audit.some((entry) => entry.clinicId === clinicA && JSON.stringify(entry.details).includes('"asaasKey":"connected"'))).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(ASAAS_KEY);
  });

  it('keeps the key when none is sent, and disconnects it with an empty string', async () => {
    const kept = await save(adminA, { graceDays: 0 });
    expect(kept.json()).toEqual({ graceDays: 0, asaasConnected: true, asaasWalletId: WALLET });
    const cleared = await save(adminA, { graceDays: 60, asaasApiKey: '', asaasWalletId: null });
    expect(cleared.json()).toEqual({ graceDays: 60, asaasConnected: false, asaasWalletId: null });
    expect((await rowOf(clinicA))?.asaasApiKeyEncrypted).toBeNull();
    expect((await merchantAccountFor(t.db, createClinicAsaasKeyBox(TEST_AUTH_SECRET), clinicA)).apiKey).toBeNull();
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

    const savedB = await save(adminB, { graceDays: 15, asaasApiKey: `${ASAAS_KEY}B` });
    expect(savedB.json()).toEqual({ graceDays: 15, asaasConnected: true, asaasWalletId: null });
    expect(await rowOf(clinicA)).toEqual(before);
    expect((await read(adminA)).json()).toEqual({ graceDays: 60, asaasConnected: false, asaasWalletId: null });
    expect((await merchantAccountFor(t.db, createClinicAsaasKeyBox(TEST_AUTH_SECRET), clinicB)).apiKey).toBe(`${ASAAS_KEY}B`);
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
