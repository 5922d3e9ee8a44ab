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

  it('publishes the OpenAPI document generated from the zod schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/me', '/api/admin/clinics']));
    const docsPage = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docsPage.statusCode).toBe(200);
    expect(docsPage.headers['content-type']).toContain('text/html');
  });
});
