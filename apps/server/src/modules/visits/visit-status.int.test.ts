/**
 * Issue 25, Atendimentos: a visit booked ahead waits as 'aguardando' (the patient's next appointment) and moves
 * aguardando → em andamento → concluído, or is cancelled with a reason; the list searches and filters on the server
 * and 'Exportar' writes the same rows as a CSV that Excel pt-BR opens; only concluded visits count as savings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import type { Service } from '@carteirinha/shared/contracts/services';
import type { Visit } from '@carteirinha/shared/contracts/visits';
import { messages } from '@carteirinha/shared/messages';
import { createSignedInUser, createTestApp, PUBLIC_URL, settleWork, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, type Programme } from '../../../test/checkout-kit.ts';

// Tuesday 24/11/2026, 10:00 in São Paulo.
let clock = new Date('2026-11-24T13:00:00Z');
let t: TestApp;
let programme: Programme;
let owner: { userId: string; cookie: string };
let desk: { userId: string; cookie: string };
let otherDesk: string;
let card: PatientCard;
let exam: Service;

const as = (cookie: string) => (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });

type Page = { items: Visit[]; total: number };
const list = async (cookie: string, query: string): Promise<Page> => {
  const response = await as(cookie)('GET', `/api/clinic/visits${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>();
};

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica da Agenda');
  owner = await createSignedInUser(t, 'clinic_admin', programme.clinicId);
  desk = await createSignedInUser(t, 'clinic_staff', programme.clinicId);
  otherDesk = (await createSignedInUser(t, 'clinic_staff', (await createProgramme(t, 'Clínica Alheia')).clinicId)).cookie;
  const patient = await createPatient(t, programme);
  const call = callAs(t, patient.cookie);
  const created = await call('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
  expect((await call('POST', `/api/patient/payments/${created.json().payment.id}/simulate`)).statusCode).toBe(200);
  await settleWork(t);
  card = (await call('GET', '/api/patient/cards')).json<{ items: PatientCard[] }>().items[0]!;
  exam = (await as(owner.cookie)('POST', '/api/clinic/services', { name: 'Ultrassom Abdominal', category: 'exame', priceCents: 30_000 })).json<Service>();
});
afterAll(async () => t.close());

describe('a visit booked ahead', () => {
  it('waits as aguardando at its time, then starts, then concludes — each step audited by who moved it', async () => {
    const booked = await as(desk.cookie)('POST', '/api/clinic/visits', { cardId: card.id, serviceId: exam.id, scheduledFor: '2026-11-26T09:30:00-03:00', professional: 'Dr. Paulo' });
    expect(booked.statusCode, booked.body).toBe(201);
    const visit = booked.json<Visit>();
    expect(visit).toMatchObject({ status: 'aguardando', performedAt: '2026-11-26T12:30:00.000Z', bookedAt: clock.toISOString(), professional: 'Dr. Paulo' });

    // It cannot jump to concluído, nor be cancelled without a reason.
    const jump = await as(desk.cookie)('PATCH', `/api/clinic/visits/${visit.id}/status`, { status: 'concluido' });
    expect(jump.statusCode).toBe(409);
    const noReason = await as(desk.cookie)('PATCH', `/api/clinic/visits/${visit.id}/status`, { status: 'cancelado' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain(messages.visitsScreen.cancelReasonRequired);

    // The patient arrives early, on Wednesday: the visit takes the time it really happened.
    clock = new Date('2026-11-25T14:00:00Z');
    const started = await as(desk.cookie)('PATCH', `/api/clinic/visits/${visit.id}/status`, { status: 'em_andamento' });
    expect(started.json<Visit>()).toMatchObject({ status: 'em_andamento', performedAt: clock.toISOString() });
    const done = await as(desk.cookie)('PATCH', `/api/clinic/visits/${visit.id}/status`, { status: 'concluido' });
    expect(done.json<Visit>()).toMatchObject({ status: 'concluido', discountPercent: 25, finalCents: 22_500 });
  });

  it('refuses a booking in the past or too far ahead, in pt-BR', async () => {
    const past = await as(desk.cookie)('POST', '/api/clinic/visits', { cardId: card.id, serviceId: exam.id, scheduledFor: '2026-11-20T09:00:00-03:00' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.message).toBe(messages.visitsScreen.bookingInPast);
    const far = await as(desk.cookie)('POST', '/api/clinic/visits', { cardId: card.id, serviceId: exam.id, scheduledFor: '2028-01-01T09:00:00-03:00' });
    expect(far.statusCode).toBe(400);
    expect(far.json().error.message).toBe(messages.visitsScreen.bookingTooFar);
  });

  it('is cancelled with its reason, from any step — a concluded one recorded by mistake too — and stays cancelled', async () => {
    const walkIn = (await as(desk.cookie)('POST', '/api/clinic/visits', { cardId: card.id, serviceName: 'Consulta', category: 'consulta', priceCents: 10_000 })).json<Visit>();
    expect(walkIn.status).toBe('concluido');
    const cancelled = await as(owner.cookie)('PATCH', `/api/clinic/visits/${walkIn.id}/status`, { status: 'cancelado', reason: 'Registrado em duplicidade' });
    expect(cancelled.json<Visit>()).toMatchObject({ status: 'cancelado', cancelReason: 'Registrado em duplicidade', canceledAt: clock.toISOString() });
    expect((await as(owner.cookie)('PATCH', `/api/clinic/visits/${walkIn.id}/status`, { status: 'em_andamento' })).statusCode).toBe(409);
    // Another clinic's desk cannot see or move it.
    expect((await as(otherDesk)('PATCH', `/api/clinic/visits/${walkIn.id}/status`, { status: 'cancelado', reason: 'Invasão' })).statusCode).toBe(404);
  });
});

describe('Atendimentos: search, Filtros and Exportar', () => {
  it('filters by status, service, who registered and period on the server', async () => {
    clock = new Date('2026-11-27T13:00:00Z');
    await as(owner.cookie)('POST', '/api/clinic/visits', { cardId: card.id, serviceName: 'Retorno', category: 'consulta', priceCents: 8_000 });
    const all = await list(owner.cookie, '');
    expect(all.total).toBe(3);
    expect((await list(owner.cookie, '?status=cancelado')).items.map((visit) => visit.cancelReason)).toEqual(['Registrado em duplicidade']);
    expect((await list(owner.cookie, `?serviceId=${exam.id}`)).items.map((visit) => visit.serviceName)).toEqual(['Ultrassom Abdominal']);
    const byOwner = await list(owner.cookie, `?registeredBy=${owner.userId}`);
    expect(byOwner.items.map((visit) => visit.serviceName)).toEqual(['Retorno']);
    expect(byOwner.items[0]?.registeredBy).toBeTruthy();
    expect((await list(owner.cookie, '?from=2026-11-25&to=2026-11-25')).total).toBe(2);
    expect((await list(owner.cookie, '?from=2026-11-27&to=2026-11-27')).items.map((visit) => visit.serviceName)).toEqual(['Retorno']);
    expect((await list(owner.cookie, '?q=ultrassom')).total).toBe(1);
    const backwards = await as(owner.cookie)('GET', '/api/clinic/visits?from=2026-11-27&to=2026-11-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toContain(messages.visitsScreen.periodInvalid);
    const registrars = (await as(desk.cookie)('GET', '/api/clinic/visits/registrars')).json<{ items: { userId: string }[] }>().items.map((row) => row.userId);
    expect(registrars).toEqual(expect.arrayContaining([owner.userId, desk.userId]));
    // Another clinic sees none of them.
    expect((await list(otherDesk, '')).total).toBe(0);
  });

  it('exports the filtered rows as a CSV for Excel pt-BR (BOM, semicolons, the catalogue’s header), and says when there is nothing', async () => {
    const response = await as(desk.cookie)('GET', '/api/clinic/visits.csv?status=concluido');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain(messages.visitsScreen.fileName);
    const [header, ...rows] = response.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    expect(header).toBe(messages.visitsScreen.csvHeader.join(';'));
    expect(rows.length).toBe(2);
    expect(rows.join('\n')).toContain('Ultrassom Abdominal');
    expect(rows.join('\n')).toContain('225,00');
    expect(rows.join('\n')).not.toContain('Registrado em duplicidade');
    const none = await as(desk.cookie)('GET', '/api/clinic/visits.csv?from=2025-01-01&to=2025-01-02');
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe(messages.visitsScreen.noData);
  });
});
