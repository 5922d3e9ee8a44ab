import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import { openPglite, type DatabaseHandle } from '../../db/client.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import { healthRoutes } from './routes.ts';

/** The probes and the error handler alone, on a database of this project's kind. */
async function probesOn(database: DatabaseHandle, extra: (app: FastifyInstance) => void = () => undefined): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(healthRoutes, { database });
  extra(app);
  await app.ready();
  return app;
}

/** What node-postgres (wrapped by Drizzle) throws when the server ends a connection: SQLSTATE 57P01. */
function terminatedConnection(): Error {
  const cause = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  return new Error('Failed query: select 1', { cause });
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('liveness and readiness (issue 12 item 3)', () => {
  it('keeps /api/health at 200 without the database, while /api/ready says 503 with Retry-After', async () => {
    const database = await createTestDatabase();
    app = await probesOn(database);
    expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(200);

    await database.close();

    const health = await app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: database.kind });
    const ready = await app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Serviço temporariamente indisponível. Tente novamente em instantes.' } });
  });

  it('answers 503 with Retry-After, not 500, when a query fails because the database went away', async () => {
    // The probes need a database to be registered, not a migrated one.
    const database = await openPglite(undefined);
    try {
      app = await probesOn(database, (instance) => {
        instance.get('/terminated', { config: { access: 'public' } }, async () => {
          throw terminatedConnection();
        });
        instance.get('/refused', { config: { access: 'public' } }, async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        });
        instance.get('/duplicate', { config: { access: 'public' } }, async () => {
          throw new Error('Failed query', { cause: Object.assign(new Error('duplicate key'), { code: '23505' }) });
        });
      });
      for (const url of ['/terminated', '/refused']) {
        const response = await app.inject({ url });
        expect(response.statusCode, url).toBe(503);
        expect(response.headers['retry-after'], url).toBe('5');
        expect(response.json().error.code, url).toBe('SERVICE_UNAVAILABLE');
      }
      // A fault of the request itself stays an internal error.
      expect((await app.inject({ url: '/duplicate' })).statusCode).toBe(500);
    } finally {
      await database.close();
    }
  });
});
