/**
 * Rede Credenciada (issues 26 and 27): the clinic_admin keeps the programme's accredited places within the platform
 * plan's partner limit; its patients search them on the server and, with a position, get the nearest first with the
 * distance in km. Another clinic's people never see or touch them.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicNetworkPage, NetworkPlace, PatientNetworkPage } from '@carteirinha/shared/contracts/network';
import type { TenantResponse } from '@carteirinha/shared/contracts/tenant';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { auditLog, clinics, networkPlaces, plans } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';

const m = messages.network;
const clock = new Date('2026-10-01T13:00:00Z');
let t: TestApp;
let clinicId: string;
let owner: string;
let staff: string;
let patient: string;
let otherOwner: string;
let otherPatient: string;

const call = (cookie: string) => (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });

/** Avenida Paulista, São Paulo: where the patient stands in the distance tests. */
const PAULISTA = { lat: -23.5614, lng: -46.6559 };

function place(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Clínica Parceira Jardins',
    category: 'clinica_parceira',
    address: 'Rua Augusta, 2000 - Jardins, São Paulo - SP',
    phone: '(11) 3456-7890',
    hours: 'Seg a Sex, 8h às 18h',
    services: ['Consultas', 'Pediatria'],
    latitude: -23.5617,
    longitude: -46.6623,
    lastConfirmedOn: '2026-09-30',
    ...overrides,
  };
}

async function create(cookie: string, body: Record<string, unknown>): Promise<NetworkPlace> {
  const response = await call(cookie)('POST', '/api/clinic/network', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<NetworkPlace>();
}

async function clinicList(cookie: string, query = ''): Promise<ClinicNetworkPage> {
  const response = await call(cookie)('GET', `/api/clinic/network${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ClinicNetworkPage>();
}

async function search(cookie: string, query: string): Promise<PatientNetworkPage> {
  const response = await call(cookie)('GET', `/api/patient/network${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PatientNetworkPage>();
}

/** A new clinic whose platform plan allows `maxClinics` partner places, and its admin. */
async function clinicWithPartnerLimit(maxClinics: number | null): Promise<{ clinicId: string; owner: string }> {
  const clinic = await createClinic(t.db, `Clínica Limite ${String(maxClinics)}`);
  const [plan] = await t.db.insert(plans).values({ name: `Plataforma ${Date.now()}-${String(maxClinics)}`, priceCents: 29_700, maxClinics }).returning({ id: plans.id });
  await t.db.update(clinics).set({ planId: plan!.id }).where(eq(clinics.id, clinic.clinicId));
  return { clinicId: clinic.clinicId, owner: (await createSignedInUser(t, 'clinic_admin', clinic.clinicId)).cookie };
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  clinicId = (await createClinic(t.db, 'Clínica da Rede')).clinicId;
  owner = (await createSignedInUser(t, 'clinic_admin', clinicId)).cookie;
  staff = (await createSignedInUser(t, 'clinic_staff', clinicId)).cookie;
  patient = (await createSignedInUser(t, 'patient', clinicId)).cookie;
  const other = (await createClinic(t.db, 'Outra Clínica')).clinicId;
  otherOwner = (await createSignedInUser(t, 'clinic_admin', other)).cookie;
  otherPatient = (await createSignedInUser(t, 'patient', other)).cookie;
});
afterAll(async () => t.close());

describe('Rede Credenciada of the clinic portal', () => {
  it('creates, edits and deletes a place, each change in the audit trail', async () => {
    const created = await create(owner, place({ name: 'Laboratório Temporário', category: 'laboratorio', phone: '', hours: '' }));
    expect(created).toMatchObject({ name: 'Laboratório Temporário', category: 'laboratorio', phone: null, hours: null, services: ['Consultas', 'Pediatria'], lastConfirmedOn: '2026-09-30' });

    const edited = await call(owner)('PUT', `/api/clinic/network/${created.id}`, place({ name: 'Laboratório Central', category: 'laboratorio', latitude: -23.55, longitude: -46.64 }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<NetworkPlace>()).toMatchObject({ name: 'Laboratório Central', phone: '1134567890', latitude: -23.55, longitude: -46.64 });

    const removed = await call(owner)('DELETE', `/api/clinic/network/${created.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await clinicList(owner)).items.some((item) => item.id === created.id)).toBe(false);
    expect((await call(owner)('DELETE', `/api/clinic/network/${created.id}`)).statusCode).toBe(404);

    const audit = await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, created.id));
    expect(audit.map((row) => row.action).sort()).toEqual(['network_place.created', 'network_place.deleted', 'network_place.updated']);
  });

  it('refuses bad input in pt-BR and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [place({ name: 'X' }), m.nameRequired],
      [place({ category: 'hospital' }), m.categoryRequired],
      [place({ address: 'Rua' }), m.addressRequired],
      [place({ phone: '123' }), messages.validation.invalidPhone],
      [place({ services: ['A'] }), m.serviceInvalid],
      [place({ services: Array.from({ length: 31 }, (_, n) => `Serviço ${n}`) }), m.tooManyServices],
      [place({ latitude: -91 }), m.latitudeInvalid],
      [place({ latitude: 'sul' }), m.latitudeInvalid],
      [place({ longitude: 180.5 }), m.longitudeInvalid],
      [place({ lastConfirmedOn: '2026-10-02' }), m.confirmedInFuture],
    ];
    const before = await t.db.select({ id: networkPlaces.id }).from(networkPlaces).where(eq(networkPlaces.clinicId, clinicId));
    for (const [body, message] of cases) {
      const response = await call(owner)('POST', '/api/clinic/network', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toContain(message);
    }
    const after = await t.db.select({ id: networkPlaces.id }).from(networkPlaces).where(eq(networkPlaces.clinicId, clinicId));
    expect(after).toHaveLength(before.length);
  });

  it('refuses the receptionist every route of the clinic’s network', async () => {
    const own = await create(owner, place({ name: 'Unidade da Recepção', category: 'unidade_propria' }));
    expect((await call(staff)('GET', '/api/clinic/network')).statusCode).toBe(403);
    expect((await call(staff)('POST', '/api/clinic/network', place())).statusCode).toBe(403);
    expect((await call(staff)('PUT', `/api/clinic/network/${own.id}`, place())).statusCode).toBe(403);
    expect((await call(staff)('DELETE', `/api/clinic/network/${own.id}`)).statusCode).toBe(403);
    expect((await call(staff)('GET', '/api/patient/network')).statusCode).toBe(403);
  });

  it('limits partner places to the platform plan’s max_clinics; own units do not count', async () => {
    const limited = await clinicWithPartnerLimit(1);
    await create(limited.owner, place({ name: 'Matriz', category: 'unidade_propria' }));
    const ownUnit = await create(limited.owner, place({ name: 'Filial Centro', category: 'unidade_propria' }));
    const partner = await create(limited.owner, place({ name: 'Parceira Única' }));
    expect((await clinicList(limited.owner)).partnerLimit).toEqual({ max: 1, used: 1 });

    const refusal = formatMessage(m.partnerLimitReached, { max: 1 });
    const lab = await call(limited.owner)('POST', '/api/clinic/network', place({ name: 'Laboratório a Mais', category: 'laboratorio' }));
    expect(lab.statusCode).toBe(409);
    expect(lab.json<{ error: { message: string } }>().error.message).toBe(refusal);
    // An own unit turned into a partner needs room like a new one; the partner itself may be edited.
    const turned = await call(limited.owner)('PUT', `/api/clinic/network/${ownUnit.id}`, place({ name: 'Filial Centro', category: 'clinica_parceira' }));
    expect(turned.statusCode).toBe(409);
    expect((await call(limited.owner)('PUT', `/api/clinic/network/${partner.id}`, place({ name: 'Parceira Única', category: 'laboratorio' }))).statusCode).toBe(200);
    const list = await clinicList(limited.owner);
    expect(list.total).toBe(3);
    expect(list.partnerLimit).toEqual({ max: 1, used: 1 });

    // A plan lowered below what the clinic has: its partners stay and can be edited; no new partner fits.
    const lowered = await clinicWithPartnerLimit(3);
    const partners = [];
    for (const n of [1, 2, 3]) partners.push(await create(lowered.owner, place({ name: `Parceira Antiga ${n}` })));
    const [lowerPlan] = await t.db.insert(plans).values({ name: `Plataforma Menor ${Date.now()}`, priceCents: 9_700, maxClinics: 1 }).returning({ id: plans.id });
    await t.db.update(clinics).set({ planId: lowerPlan!.id }).where(eq(clinics.id, lowered.clinicId));
    expect((await call(lowered.owner)('PUT', `/api/clinic/network/${partners[0]!.id}`, place({ name: 'Parceira Antiga Renomeada' }))).statusCode).toBe(200);
    expect((await call(lowered.owner)('POST', '/api/clinic/network', place({ name: 'Parceira Nova' }))).statusCode).toBe(409);
    expect((await clinicList(lowered.owner)).partnerLimit).toEqual({ max: 1, used: 3 });

    const unlimited = await clinicWithPartnerLimit(null);
    for (const n of [1, 2, 3]) await create(unlimited.owner, place({ name: `Parceira ${n}` }));
    expect((await clinicList(unlimited.owner)).partnerLimit).toEqual({ max: null, used: 3 });
  });

  it('keeps each clinic’s places to itself: another clinic’s admin and patients neither see nor edit them', async () => {
    const mine = await create(owner, place({ name: 'Parceira Exclusiva Isolada' }));
    expect((await clinicList(otherOwner, '?q=Exclusiva')).items).toEqual([]);
    expect((await call(otherOwner)('PUT', `/api/clinic/network/${mine.id}`, place({ name: 'Roubada' }))).statusCode).toBe(404);
    expect((await call(otherOwner)('DELETE', `/api/clinic/network/${mine.id}`)).statusCode).toBe(404);
    expect((await search(otherPatient, '?q=Exclusiva')).total).toBe(0);
    expect((await search(patient, '?q=Exclusiva')).items.map((item) => item.name)).toEqual(['Parceira Exclusiva Isolada']);
    const [row] = await t.db.select({ name: networkPlaces.name }).from(networkPlaces).where(eq(networkPlaces.id, mine.id));
    expect(row?.name).toBe('Parceira Exclusiva Isolada');
  });
});

describe('Rede Credenciada of the patient portal', () => {
  let searchClinic: string;
  let searcher: string;

  beforeAll(async () => {
    const clinic = await createClinic(t.db, 'Clínica da Busca');
    searchClinic = clinic.clinicId;
    const admin = (await createSignedInUser(t, 'clinic_admin', searchClinic)).cookie;
    searcher = (await createSignedInUser(t, 'patient', searchClinic)).cookie;
    // Known positions: the first at the patient's own point, one 0.01° of latitude north (1.11 km), and Rio de Janeiro.
    await create(admin, place({ name: 'Unidade Paulista', category: 'unidade_propria', address: 'Av. Paulista, 1000 - Bela Vista, São Paulo - SP', latitude: PAULISTA.lat, longitude: PAULISTA.lng }));
    await create(admin, place({ name: 'Laboratório Análises', category: 'laboratorio', address: 'Rua Haddock Lobo, 500 - Cerqueira César, São Paulo - SP', latitude: PAULISTA.lat + 0.01, longitude: PAULISTA.lng }));
    await create(admin, place({ name: 'Clínica Parceira Copacabana', address: 'Av. Atlântica, 1702 - Copacabana, Rio de Janeiro - RJ', latitude: -22.9068, longitude: -43.1729 }));
  });

  it('searches by name, category or address, ignoring case and accents, with the count found and pages', async () => {
    expect((await search(searcher, '')).total).toBe(3);
    expect((await search(searcher, '?q=LABORATORIO')).items.map((item) => item.name)).toEqual(['Laboratório Análises']);
    expect((await search(searcher, '?q=parceira')).items.map((item) => item.name)).toEqual(['Clínica Parceira Copacabana']);
    expect((await search(searcher, `?q=${encodeURIComponent('unidade própria')}`)).items.map((item) => item.name)).toEqual(['Unidade Paulista']);
    expect((await search(searcher, '?q=sao%20paulo')).total).toBe(2);
    expect((await search(searcher, '?q=100%25')).total).toBe(0);

    const first = await search(searcher, '?pageSize=2&page=1');
    const second = await search(searcher, '?pageSize=2&page=2');
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(1);
    expect(first.total).toBe(3);
    expect(new Set([...first.items, ...second.items].map((item) => item.name)).size).toBe(3);
    expect(first.items.every((item) => item.distanceKm === null)).toBe(true);
    // Each place's card prices: the public table on the clinic's own site.
    const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, searchClinic));
    expect(first.priceTableUrl).toBe(`http://${clinic!.slug}.localhost:3999/precos`);
  });

  it('sorts by real distance from the position sent, with the km of each', async () => {
    const nearest = await search(searcher, `?lat=${PAULISTA.lat}&lng=${PAULISTA.lng}`);
    expect(nearest.items.map((item) => item.name)).toEqual(['Unidade Paulista', 'Laboratório Análises', 'Clínica Parceira Copacabana']);
    const [here, lab, rio] = nearest.items.map((item) => item.distanceKm ?? Number.NaN);
    expect(here).toBeCloseTo(0, 3);
    expect(lab).toBeCloseTo(1.112, 2);
    // São Paulo to Rio de Janeiro: about 360 km as the crow flies.
    expect(rio).toBeGreaterThan(355);
    expect(rio).toBeLessThan(365);

    const fromRio = await search(searcher, '?lat=-22.9068&lng=-43.1729&q=paulo');
    expect(fromRio.items.map((item) => item.name)).toEqual(['Laboratório Análises', 'Unidade Paulista']);
  });

  it('refuses half a position or one out of range', async () => {
    expect((await call(searcher)('GET', '/api/patient/network?lat=-23.5')).statusCode).toBe(400);
    expect((await call(searcher)('GET', '/api/patient/network?lat=-95&lng=-46')).statusCode).toBe(400);
    expect((await call(searcher)('GET', '/api/patient/network?lat=-23&lng=-190')).statusCode).toBe(400);
  });
});

describe('the map’s tiles', () => {
  it('come from configuration to the web app, and the CSP allows their origin', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/tenant' });
    expect(response.json<TenantResponse>().mapTiles).toEqual({
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: expect.stringContaining('OpenStreetMap'),
    });
    expect(String(response.headers['content-security-policy'])).toMatch(/img-src 'self' data: blob: https:\/\/tile\.openstreetmap\.org/);
  });
});
