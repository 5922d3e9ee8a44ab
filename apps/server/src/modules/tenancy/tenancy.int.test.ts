import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { clinics, emailOutbox, jobs, plans, userRoles, users } from '../../db/schema.ts';
import { TEST_PASSWORD, changeSettings, cookieHeaderOf, createClinic, createSignedInUser, createTestApp, uniqueEmail, type TestApp, settleWork } from '../../../test/helpers.ts';
import { suspendExpiredTrials } from './service.ts';
import { multipartFile } from '../../../test/uploads.ts';

let t: TestApp;
let clinicA: { clinicId: string; planId: string };
let slugA: string;

async function slugOf(clinicId: string): Promise<string> {
  const [row] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  return row!.slug;
}

function onHost(host: string) {
  return { host, origin: `http://${host}` };
}

async function signUpOn(host: string, email: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: onHost(host),
    payload: { email, password: TEST_PASSWORD, name: 'Paciente do Site' },
  });
}

async function signInOn(host: string, email: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: onHost(host), payload: { email, password: TEST_PASSWORD } });
}

beforeAll(async () => {
  t = await createTestApp();
  clinicA = await createClinic(t.db, 'Clínica Alfa');
  slugA = await slugOf(clinicA.clinicId);
  await t.db.update(clinics).set({ displayName: 'Alfa Saúde', primaryColor: '#7c3aed', city: 'Recife', state: 'PE' }).where(eq(clinics.id, clinicA.clinicId));
});
afterAll(async () => {
  await t.close();
});

describe('host → site', () => {
  it('the main host is the platform; a clinic sub-domain is that clinic, with its branding and active plans', async () => {
    const platform = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: 'localhost:3000' } });
    expect(platform.json()).toMatchObject({ kind: 'platform' });

    const clinic = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: `${slugA}.localhost:3000` } });
    expect(clinic.json()).toMatchObject({
      kind: 'clinic',
      clinic: { id: clinicA.clinicId, name: 'Alfa Saúde', primaryColor: '#7c3aed', city: 'Recife' },
      plans: [{ id: clinicA.planId }],
    });
  });

  it('a clinic with its own domain is found by that domain', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Dominio');
    await t.db.update(clinics).set({ domain: 'cartao.clinicadominio.com.br' }).where(eq(clinics.id, clinicId));
    const response = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: 'cartao.clinicadominio.com.br' } });
    expect(response.json().clinic.id).toBe(clinicId);
  });

  it('an unknown host or a suspended clinic gets a clear pt-BR page, never the platform', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'nao-existe.localhost' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect(unknown.body).toContain('Clínica não encontrada');

    const { clinicId } = await createClinic(t.db, 'Clínica Suspensa');
    await t.db.update(clinics).set({ status: 'suspended' }).where(eq(clinics.id, clinicId));
    const host = `${await slugOf(clinicId)}.localhost`;
    const page = await t.app.inject({ method: 'GET', url: '/auth', headers: { host } });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Clínica indisponível');
    const api = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host } });
    expect(api.json().error.message).toMatch(/temporariamente indisponível/);
    // Probes still answer on any host.
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host } })).statusCode).toBe(200);
  });
});

describe('sign-up and sign-in by host', () => {
  it('signing up on a clinic site makes a patient of that clinic', async () => {
    const email = uniqueEmail('site');
    const response = await signUpOn(`${slugA}.localhost`, email);
    expect(response.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { host: `${slugA}.localhost`, cookie: cookieHeaderOf(response) } });
    expect(me.json()).toMatchObject({ role: 'patient', clinic: { id: clinicA.clinicId } });
  });

  it('signing up on the platform site makes no patient: the person goes to onboarding', async () => {
    const response = await signUpOn('localhost', uniqueEmail('plataforma'));
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieHeaderOf(response) } });
    expect(me.json().role).toBeNull();
  });

  it("an account with no role that signs in on a clinic's site ('Sou paciente') becomes its patient", async () => {
    const email = uniqueEmail('sou-paciente');
    expect((await signUpOn('localhost', email)).statusCode).toBe(200);
    const signedIn = await signInOn(`${slugA}.localhost`, email);
    expect(signedIn.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { host: `${slugA}.localhost`, cookie: cookieHeaderOf(signedIn) } });
    expect(me.json()).toMatchObject({ role: 'patient', clinic: { id: clinicA.clinicId } });
  });

  it('refuses a new patient once the clinic plan’s patient limit is reached, and creates nothing', async () => {
    const [tiny] = await t.db.insert(plans).values({ name: 'Mini', priceCents: 100, maxPatients: 1 }).returning({ id: plans.id });
    const { clinicId } = await createClinic(t.db, 'Clínica Pequena');
    await t.db.update(clinics).set({ planId: tiny!.id }).where(eq(clinics.id, clinicId));
    const host = `${await slugOf(clinicId)}.localhost`;
    expect((await signUpOn(host, uniqueEmail('primeiro'))).statusCode).toBe(200);
    const email = uniqueEmail('segundo');
    const second = await signUpOn(host, email);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe('Esta clínica atingiu o limite de pacientes do seu plano. Fale com a clínica.');
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("refuses another clinic's account, or an admin, on a clinic's site", async () => {
    const other = await createClinic(t.db, 'Clínica Beta');
    const staffB = await createSignedInUser(t, 'clinic_staff', other.clinicId);
    const wrong = await signInOn(`${slugA}.localhost`, staffB.email);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ code: 'WRONG_CLINIC', message: 'Esta conta não pertence a esta clínica. Entre pelo site da sua clínica.' });
    expect(wrong.cookies).toHaveLength(0);

    const admin = await createSignedInUser(t, 'admin');
    expect((await signInOn(`${slugA}.localhost`, admin.email)).statusCode).toBe(403);
    // A session made on the platform's site does not open a clinic's API either.
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { host: `${slugA}.localhost`, cookie: staffB.cookie } });
    expect(me.statusCode).toBe(401);
  });
});

describe('onboarding', () => {
  async function onboard(cookie: string, payload: Record<string, unknown>, host = 'localhost') {
    return t.app.inject({ method: 'POST', url: '/api/onboarding/clinic', headers: { cookie, host }, payload });
  }

  /** A signed-in account without a role whose owner confirmed the e-mail: who may onboard a clinic (ADR 006). */
  async function confirmedNewcomer() {
    const person = await createSignedInUser(t, null);
    await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, person.userId));
    return person;
  }

  it('asks for a confirmed e-mail first, and creates the clinic once the link was opened', async () => {
    const email = uniqueEmail('fundadora');
    const signedUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: onHost('localhost'),
      payload: { email, password: TEST_PASSWORD, name: 'Fundadora' },
    });
    const cookie = cookieHeaderOf(signedUp);
    const payload = { name: 'Clínica Confirmada', cnpj: '04.252.011/0001-10', slug: 'confirmada' };
    const refused = await onboard(cookie, payload);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(messages.tenancy.verifyEmailFirst);
    expect(await t.db.select().from(clinics).where(eq(clinics.slug, 'confirmada'))).toHaveLength(0);

    await settleWork(t);
    const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
    const link = new URL(/https?:\/\/\S+/.exec(mail!.text)![0]);
    expect((await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { cookie } })).statusCode).toBe(302);
    // The same session, now of a confirmed owner: no new sign-in is needed.
    expect((await onboard(cookie, payload)).statusCode).toBe(201);
  });

  it('creates a clinic in a 14-day trial with the person as its clinic_admin', async () => {
    const { userId, cookie } = await confirmedNewcomer();
    const response = await onboard(cookie, { name: 'Clínica Nova Vida', cnpj: '45.723.174/0001-10', slug: 'nova-vida' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.url).toBe('http://nova-vida.localhost:3999');
    const days = (new Date(body.trialEndsAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const [clinic] = await t.db.select().from(clinics).where(eq(clinics.id, body.clinicId));
    expect(clinic).toMatchObject({ name: 'Clínica Nova Vida', cnpj: '45723174000110', slug: 'nova-vida', status: 'trial', createdBy: userId });
    // A sign-up of its own: it waits for the admin's 'Aprovar Cadastro'.
    expect(clinic!.approvedAt).toBeNull();
    expect(clinic!.planId).not.toBeNull();
    const [role] = await t.db.select().from(userRoles).where(eq(userRoles.userId, userId));
    expect(role).toMatchObject({ role: 'clinic_admin', clinicId: body.clinicId });

    // 'Novas clínicas' is on by default: the support address hears of it, by a durable job written with the clinic
    // (sent after the answer, so that a slow SMTP server does not hold the sign-up, and tried again if it is down).
    const queued = await t.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.queue, 'platform-notices'));
    expect(queued.map((job) => job.payload)).toContainEqual({ kind: 'clinicSignedUp', name: 'Clínica Nova Vida' });
    await settleWork(t);
    const [notice] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.subject, 'Nova clínica cadastrada: Clínica Nova Vida'));
    expect(notice).toMatchObject({ to: 'suporte@carteirinha.com.br' });
    expect(notice?.text).toContain('/admin');

    const again = await onboard(cookie, { name: 'Outra', cnpj: '11.444.777/0001-61', slug: 'outra' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Sua conta já está ligada a uma clínica.');
  });

  it('validates every field in pt-BR and creates nothing on bad input', async () => {
    const { cookie } = await confirmedNewcomer();
    const before = (await t.db.select().from(clinics)).length;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: 'Ok Clínica', cnpj: '11.222.333/0001-82', slug: 'valida' }, 400, 'CNPJ inválido'],
      [{ name: 'Ok Clínica', cnpj: '11.444.777/0001-61', slug: 'admin' }, 400, 'Este endereço é reservado. Escolha outro.'],
      [{ name: 'Ok Clínica', cnpj: '11.444.777/0001-61', slug: 'com espaço' }, 400, 'Use de 3 a 40 letras minúsculas, números ou hífens, começando e terminando com letra ou número'],
      [{ name: 'Ok', cnpj: '11.444.777/0001-61', slug: 'valida' }, 400, 'Nome da clínica deve ter no mínimo 3 caracteres'],
      [{ name: 'Ok Clínica', cnpj: '45.723.174/0001-10', slug: 'valida' }, 409, 'Já existe uma clínica com este CNPJ.'],
      [{ name: 'Ok Clínica', cnpj: '11.444.777/0001-61', slug: 'nova-vida' }, 409, 'Este endereço já está em uso. Escolha outro.'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await onboard(cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error.message).toBe(message);
    }
    expect((await t.db.select().from(clinics)).length).toBe(before);
  });

  it('two people racing for one CNPJ: one clinic, and the other told the CNPJ is taken (not the address)', async () => {
    const [first, second] = [await confirmedNewcomer(), await confirmedNewcomer()];
    const answers = await Promise.all([
      onboard(first.cookie, { name: 'Clínica Corrida Um', cnpj: '34.028.316/0001-03', slug: 'corrida-um' }),
      onboard(second.cookie, { name: 'Clínica Corrida Dois', cnpj: '34.028.316/0001-03', slug: 'corrida-dois' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().error.message).toBe('Já existe uma clínica com este CNPJ.');
    expect(await t.db.select().from(clinics).where(eq(clinics.cnpj, '34028316000103'))).toHaveLength(1);
  });

  it('accepts the alphanumeric CNPJ of 2026', async () => {
    const { cookie } = await confirmedNewcomer();
    const response = await onboard(cookie, { name: 'Clínica Alfanumérica', cnpj: '12.ABC.345/01DE-35', slug: 'alfanumerica' });
    expect(response.statusCode).toBe(201);
  });

  it('is refused without a session, and on a clinic’s site', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/onboarding/clinic', payload: {} })).statusCode).toBe(401);
    const { cookie } = await confirmedNewcomer();
    const onClinicSite = await onboard(cookie, { name: 'Clínica Errada', cnpj: '11.444.777/0001-61', slug: 'errada' }, `${slugA}.localhost`);
    expect(onClinicSite.statusCode).toBe(401);
    expect(await t.db.select().from(clinics).where(eq(clinics.slug, 'errada'))).toHaveLength(0);
  });

  it('tells the support address of a new clinic only while "Novas clínicas" is on', async () => {
    const admin = await createSignedInUser(t, 'admin');
    await changeSettings(t, admin.cookie, { notifyNewClinics: false });
    const { cookie } = await confirmedNewcomer();
    expect((await onboard(cookie, { name: 'Clínica Silenciosa', cnpj: '11.222.333/0001-81', slug: 'silenciosa' })).statusCode).toBe(201);
    await settleWork(t);
    expect(await t.db.select().from(emailOutbox).where(eq(emailOutbox.subject, 'Nova clínica cadastrada: Clínica Silenciosa'))).toHaveLength(0);
    await changeSettings(t, admin.cookie, { notifyNewClinics: true });
  });

  it('suspends trials that ran out, and only those', async () => {
    const { clinicId: expired } = await createClinic(t.db, 'Trial Vencido');
    const { clinicId: running } = await createClinic(t.db, 'Trial Correndo');
    await t.db.update(clinics).set({ status: 'trial', trialEndsAt: new Date(Date.now() - 60_000) }).where(eq(clinics.id, expired));
    await t.db.update(clinics).set({ status: 'trial', trialEndsAt: new Date(Date.now() + 86_400_000) }).where(eq(clinics.id, running));
    expect(await suspendExpiredTrials(t.db)).toBeGreaterThanOrEqual(1);
    const statuses = await t.db.select({ id: clinics.id, status: clinics.status }).from(clinics);
    expect(statuses.find((c) => c.id === expired)?.status).toBe('suspended');
    expect(statuses.find((c) => c.id === running)?.status).toBe('trial');
  });
});

describe('"Sou paciente" search', () => {
  it('finds open clinics by name or city, with the address of their site', async () => {
    const byCity = await t.app.inject({ method: 'GET', url: '/api/public/clinics?q=recife' });
    expect(byCity.json().items).toEqual([{ name: 'Alfa Saúde', city: 'Recife', state: 'PE', url: `http://${slugA}.localhost:3999` }]);
    const byName = await t.app.inject({ method: 'GET', url: '/api/public/clinics?q=Alfa' });
    expect(byName.json().items.map((c: { name: string }) => c.name)).toContain('Alfa Saúde');
    // Patients type without accents, or with accents the name lacks.
    for (const q of ['alfa saude', 'SAÚDE', 'récife']) {
      const found = await t.app.inject({ method: 'GET', url: `/api/public/clinics?q=${encodeURIComponent(q)}` });
      expect(found.json().items.map((c: { name: string }) => c.name), q).toContain('Alfa Saúde');
    }
    const suspended = await t.app.inject({ method: 'GET', url: '/api/public/clinics?q=Suspensa' });
    expect(suspended.json().items).toEqual([]);
    const short = await t.app.inject({ method: 'GET', url: '/api/public/clinics?q=a' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe('Digite ao menos 2 letras para buscar');
  });
});

describe('branding', () => {
  it('lets the clinic admin set name and colour, and not the staff', async () => {
    const admin = await createSignedInUser(t, 'clinic_admin', clinicA.clinicId);
    const staff = await createSignedInUser(t, 'clinic_staff', clinicA.clinicId);
    const payload = { displayName: 'Alfa Saúde Integrada', primaryColor: '#0E7490' };
    const denied = await t.app.inject({ method: 'PATCH', url: '/api/clinic/branding', headers: { cookie: staff.cookie }, payload });
    expect(denied.statusCode).toBe(403);
    const saved = await t.app.inject({ method: 'PATCH', url: '/api/clinic/branding', headers: { cookie: admin.cookie }, payload });
    expect(saved.json()).toMatchObject({ name: 'Alfa Saúde Integrada', primaryColor: '#0e7490' });
    const site = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: `${slugA}.localhost` } });
    expect(site.json().clinic.name).toBe('Alfa Saúde Integrada');

    const bad = await t.app.inject({ method: 'PATCH', url: '/api/clinic/branding', headers: { cookie: admin.cookie }, payload: { displayName: 'X', primaryColor: 'azul' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Nome de exibição deve ter no mínimo 2 caracteres');
  });

  it('accepts an image logo re-encoded as WebP, and refuses files that only pretend to be images', async () => {
    const admin = await createSignedInUser(t, 'clinic_admin', clinicA.clinicId);
    const png = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#0d9488' } }).png().toBuffer();
    const upload = multipartFile('logo.png', 'image/png', png);
    const saved = await t.app.inject({ method: 'POST', url: '/api/clinic/branding/logo', headers: { cookie: admin.cookie, 'content-type': upload.contentType }, payload: upload.payload });
    expect(saved.statusCode).toBe(200);
    const logoUrl: string = saved.json().logoUrl;
    expect(logoUrl).toMatch(/^\/uploads\/logos\/.+\.webp$/);
    const served = await t.app.inject({ method: 'GET', url: logoUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    const meta = await sharp(served.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(512);

    const html = multipartFile('logo.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>'));
    const fake = await t.app.inject({ method: 'POST', url: '/api/clinic/branding/logo', headers: { cookie: admin.cookie, 'content-type': html.contentType }, payload: html.payload });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error.message).toBe('Por favor, selecione uma imagem válida');

    const big = multipartFile('grande.png', 'image/png', Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]));
    const tooBig = await t.app.inject({ method: 'POST', url: '/api/clinic/branding/logo', headers: { cookie: admin.cookie, 'content-type': big.contentType }, payload: big.payload });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.message).toBe('A imagem deve ter no máximo 2MB');
  });
});
