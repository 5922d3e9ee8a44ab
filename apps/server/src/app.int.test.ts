import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createTestApp, testDatabaseKind, type TestApp } from '../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the HTTP application', () => {
  it('reports its health and which database it runs on', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: testDatabaseKind() });
  });

  it('serves the SPA for any page path (history fallback), but JSON 404 for unknown API paths', async () => {
    for (const url of ['/', '/admin/clinicas', '/uma/pagina/que/nao/existe']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<div id="root">');
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/nada-aqui' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'Recurso não encontrado' } });
  });

  it('answers malformed or oversized bodies with a pt-BR error and no internals', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: { code: 'VALIDATION', message: 'Requisição inválida' } });

    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.com","password":"123456","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);

    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.com', password: 'x'.repeat(1_100_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('validates query strings with pt-BR messages and changes nothing', async () => {
    const { cookie } = await createSignedInUser(t, 'admin');
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/clinics?page=0', headers: { cookie } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION');
    expect(response.json().error.message).toMatch(/^Pequeno demais/);
  });

  it('sends security headers, and no-store on API answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("object-src 'none'");
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('sends them on errors too, with no referrer and no CORS grant to another origin (security checklist case 29)', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/nao-existe', headers: { origin: 'https://evil.example' } }),
      await t.app.inject({ method: 'GET', url: '/api/me', headers: { origin: 'https://evil.example' } }),
      await t.app.inject({ method: 'GET', url: '/pagina-qualquer' }),
    ];
    for (const response of answers) {
      expect(response.headers['x-content-type-options'], response.raw.req.url).toBe('nosniff');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
    expect(answers.map((response) => response.statusCode)).toEqual([404, 401, 200]);
  });

  it('builds the OpenAPI document from the zod schemas, but does not serve it unless API_DOCS is on', async () => {
    const document = t.app.swagger();
    expect('openapi' in document ? document.openapi : null).toMatch(/^3\./);
    expect(Object.keys(document.paths ?? {})).toEqual(expect.arrayContaining(['/api/health', '/api/me', '/api/admin/clinics']));
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('openapi');
    }
  });
});

describe('with API_DOCS=true', () => {
  let docs: TestApp;
  beforeAll(async () => {
    docs = await createTestApp({ API_DOCS: 'true' });
  });
  afterAll(async () => {
    await docs.close();
  });

  it('publishes the OpenAPI document and its viewer at /api/docs', async () => {
    const response = await docs.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/me', '/api/admin/clinics']));
    const docsPage = await docs.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docsPage.statusCode).toBe(200);
    expect(docsPage.headers['content-type']).toContain('text/html');
  });
});

describe('served over https (PUBLIC_URL https://…)', () => {
  let secure: TestApp;
  beforeAll(async () => {
    secure = await createTestApp({ PUBLIC_URL: 'https://app.carteirinha.test' });
  });
  afterAll(async () => {
    await secure.close();
  });

  it('asks browsers for HTTPS for a year, sub-domains (the clinics) included, on every answer', async () => {
    for (const url of ['/api/health', '/api/nao-existe', '/']) {
      const response = await secure.app.inject({ method: 'GET', url });
      expect(response.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
  });
});
