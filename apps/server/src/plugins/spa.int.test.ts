import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinics, plans, subscriptionPlans } from '../db/schema.ts';
import { precompressFile } from '../../../web/build/precompress.ts';
import { cookieHeaderOf, createClinic, createTestApp, signUp, uniqueEmail, type TestApp } from '../../test/helpers.ts';
import { buildLandingInto } from '../../test/web-build.ts';

/*
 * Issue 24: "/" is drawn by the server for the host asked for (ADR 019), and the build's files are sent compressed
 * and cached as they should be. The landing renderer is the web app's own, built for real.
 */

const ASSET = 'assets/app-Ab12Cd34.js';
/** Long and repetitive enough to be worth compressing, as a real bundle is. */
const ASSET_CODE = `export const words = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `palavra ${i}`))};\n`;

/** A route's page chunk, named in the build's route preloads. */
const PAGE_CHUNK = 'assets/patient-card-page-Zz99Yy88.js';

let t: TestApp;
let clinic: { clinicId: string; planId: string; host: string };

async function prepareWeb(webDir: string): Promise<void> {
  await buildLandingInto(webDir);
  await fs.mkdir(path.join(webDir, 'assets'));
  await fs.writeFile(path.join(webDir, ASSET), ASSET_CODE);
  await precompressFile(path.join(webDir, ASSET));
  // As the web build lists them (apps/web/build/bundle-budgets.ts, routePreloadsOf).
  await fs.mkdir(path.join(webDir, '.vite'), { recursive: true });
  await fs.writeFile(path.join(webDir, '.vite', 'route-preloads.json'), JSON.stringify({ '/paciente/cartao': [ASSET, PAGE_CHUNK], '/paciente/assinatura/boleto/:id': [PAGE_CHUNK] }));
}

function get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { host: 'localhost:3000', ...headers } });
}

/** The body as the browser reads it, whatever encoding the server chose. */
function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(response.rawPayload).toString('utf8');
  return response.body;
}

beforeAll(async () => {
  t = await createTestApp({}, { prepareWeb });
  const created = await createClinic(t.db, 'Clínica Sorriso');
  await t.db
    .update(clinics)
    .set({ displayName: 'Sorriso Pleno', primaryColor: '#7c3aed', logoUrl: '/uploads/logos/sorriso.webp', city: 'Recife', state: 'PE' })
    .where(eq(clinics.id, created.clinicId));
  const [row] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, created.clinicId));
  clinic = { ...created, host: `${row!.slug}.localhost:3000` };
  await t.db.insert(subscriptionPlans).values({ clinicId: created.clinicId, name: 'Plano Família', priceCents: 14990, maxMembers: 4 });
  await t.db.insert(subscriptionPlans).values({ clinicId: created.clinicId, name: 'Plano Antigo', priceCents: 5000, isActive: false });
  await t.db.insert(plans).values([
    { name: 'Starter', priceCents: 29700, features: ['Até 500 pacientes'] },
    { name: 'Professional', priceCents: 69700, popular: true },
    { name: 'Enterprise', priceCents: null },
    { name: 'Descontinuado', priceCents: 9900, isActive: false },
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("a clinic's landing page, drawn by the server", () => {
  it("carries the clinic's name, colours, logo and plans in the HTML, with no script to run", async () => {
    const response = await get('/', { host: clinic.host });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = decoded(response);

    expect(html).toContain('<title>Sorriso Pleno</title>');
    expect(html).toMatch(/<h1 id="clinic-hero-title"[^>]*>Sorriso Pleno<\/h1>/);
    expect(html).toContain('Recife / PE');
    expect(html).toContain('<link rel="icon" href="/uploads/logos/sorriso.webp" />');
    expect(html).toContain('<meta name="theme-color" content="#7c3aed" />');
    // The brand colour with its readable pair (white on this violet), before any script could set them.
    expect(html).toMatch(/<style>:root\{--primary:#7c3aed;--primary-foreground:#ffffff;/);

    const cards = html.split('data-testid="clinic-plan"').slice(1);
    expect(cards).toHaveLength(2);
    const family = cards.find((card) => card.includes('Plano Família'));
    expect(family).toContain('R$ 149,90');
    expect(family).toContain('Até 4 pessoas');
    expect(family).toContain('Consultas: 30%');
    // Sign-up first, then straight on to that plan's checkout (issue 23).
    expect(family).toMatch(/<a [^>]*href="\/auth\?tab=cadastrar&amp;next=%2Fpaciente%2Fassinatura%3Fplano%3D[0-9a-f-]{36}"[^>]*>Assinar Agora<\/a>/);
    expect(html).toContain('Plano Clínica Sorriso');
    expect(html).not.toContain('Plano Antigo');
    // The public price table (issue 25) is a plain link: the page still carries no script.
    expect(html).toMatch(/<a [^>]*href="\/precos"[^>]*>Tabela de preços<\/a>/);
    // The platform's own plans belong to its own host.
    expect(html).not.toContain('Professional');

    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/modulepreload/i);
  });

  it('offers the visitor their way in: Entrar and Cadastrar, or their portal once signed in there', async () => {
    const signedOut = decoded(await get('/', { host: clinic.host }));
    expect(signedOut).toMatch(/<a [^>]*href="\/auth"[^>]*>Entrar<\/a>/);
    expect(signedOut).toMatch(/<a [^>]*href="\/auth\?tab=cadastrar"[^>]*>Cadastrar<\/a>/);

    const signedUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { host: clinic.host, origin: `http://${clinic.host}` },
      payload: { email: uniqueEmail('paciente'), password: 'senha-forte-123', name: 'Paciente do Site' },
    });
    expect(signedUp.statusCode).toBe(200);
    const patient = decoded(await get('/', { host: clinic.host, cookie: cookieHeaderOf(signedUp) }));
    expect(patient).toMatch(/<a [^>]*href="\/paciente"[^>]*>Meu portal<\/a>/);
    expect(patient).not.toMatch(/>Cadastrar<\/a>/);

    // Someone else's session (the platform's account, here) is no session on this clinic's site: a visitor.
    const elsewhere = await signUp(t.app, { email: uniqueEmail('outro') });
    const visitor = decoded(await get('/', { host: clinic.host, cookie: cookieHeaderOf(elsewhere) }));
    expect(visitor).toMatch(/<a [^>]*href="\/auth"[^>]*>Entrar<\/a>/);
  });

  it('says "Aguardando aprovação" for a self-service clinic not approved yet, and offers no plans', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Nova');
    await t.db.update(clinics).set({ status: 'trial', approvedAt: null, trialEndsAt: new Date(Date.now() + 86_400_000) }).where(eq(clinics.id, clinicId));
    const [row] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
    const html = decoded(await get('/', { host: `${row!.slug}.localhost:3000` }));
    expect(html).toContain('Aguardando aprovação');
    expect(html).toContain('Clínica Nova');
    expect(html).not.toContain('Assinar Agora');
  });
});

describe("the platform's landing page, drawn by the server", () => {
  it('lists the plans on sale, each leading to sign-up with the plan chosen', async () => {
    const [starter] = await t.db.select({ id: plans.id }).from(plans).where(eq(plans.name, 'Starter'));
    const html = decoded(await get('/'));
    expect(html).toContain('<title>Carteirinha — Cartão de Desconto em Saúde</title>');
    for (const name of ['Starter', 'Professional', 'Enterprise']) expect(html).toContain(`>${name}</h3>`);
    expect(html).not.toContain('Descontinuado');
    expect(html).toContain('R$ 297');
    expect(html).toContain('Mais Popular');
    expect(html).toContain(`href="/auth?tab=cadastrar&amp;plano=${starter!.id}"`);
    expect(html).toMatch(/<a [^>]*href="mailto:[^"]+"[^>]*>Falar com Vendas<\/a>/);
    // No clinic's colours on the platform's host.
    expect(html).not.toContain('<style>');
    expect(html).not.toMatch(/<script/i);
  });

  it('leaves the e-mail confirmation to the SPA, which says it in a toast', async () => {
    const response = await get('/?email-confirmado=1');
    expect(response.statusCode).toBe(200);
    expect(decoded(response)).toBe('<!doctype html><html lang="pt-BR"><body><div id="root"></div></body></html>');
  });
});

describe('compression and caching', () => {
  it('sends the drawn page brotli- or gzip-compressed as the client accepts, never cached without asking', async () => {
    const brotli = await get('/', { host: clinic.host, 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('no-cache');
    expect(brotli.headers.vary).toBe('Accept-Encoding, Cookie');
    const gzip = await get('/', { host: clinic.host, 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await get('/', { host: clinic.host });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(decoded(brotli)).toBe(plain.body);
    expect(decoded(gzip)).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('sends hashed assets from their precompressed copies, cached for a year as immutable', async () => {
    const brotli = await get(`/${ASSET}`, { 'accept-encoding': 'gzip, br' });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toBe('Accept-Encoding');
    expect(decoded(brotli)).toBe(ASSET_CODE);

    const gzip = await get(`/${ASSET}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(ASSET_CODE);

    const plain = await get(`/${ASSET}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ASSET_CODE);
  });

  it("names a route's chunks as module preloads in the SPA's page, so the browser fetches them with the entry", async () => {
    const card = await get('/paciente/cartao', { 'accept-encoding': 'gzip' });
    expect(card.statusCode).toBe(200);
    expect(card.headers['cache-control']).toBe('no-cache');
    expect(card.headers['content-encoding']).toBe('gzip');
    const html = decoded(card);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(`<link rel="modulepreload" crossorigin href="/${ASSET}"><link rel="modulepreload" crossorigin href="/${PAGE_CHUNK}">`);
    // A route with a parameter, with or without a trailing slash.
    for (const url of ['/paciente/assinatura/boleto/123e4567', '/paciente/assinatura/boleto/123e4567/?x=1']) {
      expect(decoded(await get(url)), url).toContain(`<link rel="modulepreload" crossorigin href="/${PAGE_CHUNK}">`);
    }
    // Another route, or a deeper path than the route's, gets the page as built.
    for (const url of ['/auth', '/paciente/assinatura/boleto/1/2', '/paciente/cartao-antigo']) {
      expect(decoded(await get(url)), url).not.toContain('modulepreload');
    }
  });

  it("serves the SPA's page for every other route with no-cache, and never the build's own files", async () => {
    const spa = await get('/rota/que/nao/existe');
    expect(spa.statusCode).toBe(200);
    expect(spa.headers['cache-control']).toBe('no-cache');
    expect(spa.body).toContain('<div id="root"></div>');
    // The template, the renderer and the compressed copies are not pages: the SPA answers those addresses.
    for (const url of ['/landing.html', '/.server/render-home-page.js', `/${ASSET}.br`]) {
      const response = await get(url);
      expect(response.body, url).toBe(spa.body);
    }
  });
});
