import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientProfileSchema } from '@carteirinha/shared/contracts/profiles';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, cpfOfCaller, createPatient, createProgramme, newKey, VALID_CNPJ, type Programme } from '../../../test/checkout-kit.ts';

let t: TestApp;
let programme: Programme;

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  programme = await createProgramme(t, 'Clínica do Perfil');
});
afterAll(async () => t.close());

async function profileOf(cookie: string) {
  const response = await callAs(t, cookie)('GET', '/api/patient/profile');
  expect(response.statusCode).toBe(200);
  return patientProfileSchema.parse(response.json());
}

describe('GET /api/patient/profile', () => {
  it('answers a new patient with the account’s name and e-mail, and no CPF or phone yet', async () => {
    const patient = await createPatient(t, programme);
    expect(await profileOf(patient.cookie)).toEqual({ fullName: expect.any(String), email: patient.email, cpf: null, phone: null, birthDate: null, photoUrl: null });
  });

  it('answers the CPF and phone the first checkout recorded, in digits, to that patient only', async () => {
    const subscriber = await createPatient(t, programme);
    const neighbour = await createPatient(t, programme);
    const created = await callAs(t, subscriber.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
    expect(created.statusCode).toBe(201);

    expect(await profileOf(subscriber.cookie)).toMatchObject({ email: subscriber.email, cpf: cpfOfCaller(subscriber.cookie), phone: '11987654321' });
    expect(await profileOf(neighbour.cookie)).toMatchObject({ email: neighbour.email, cpf: null, phone: null });
  });

  it('keeps the CPF empty when a company paid by CNPJ', async () => {
    const patient = await createPatient(t, programme);
    const body = checkoutBody(programme);
    const created = await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', { ...body, customerData: { ...(body.customerData as object), cpfCnpj: VALID_CNPJ } }, newKey());
    expect(created.statusCode).toBe(201);
    expect(await profileOf(patient.cookie)).toMatchObject({ cpf: null, phone: '11987654321' });
  });
});
