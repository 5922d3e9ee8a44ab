import { describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { redactUrl, serializeError } from './log-redaction.ts';

describe('access-log URLs', () => {
  it('keeps the path and paging, and hides tokens, codes and search text', () => {
    expect(redactUrl('/api/health')).toBe('/api/health');
    expect(redactUrl('/auth/redefinir-senha?token=abc123')).toBe('/auth/redefinir-senha?token=[redacted]');
    expect(redactUrl('/api/auth/verify-email?token=eyJhbGciOi.x.y&callbackURL=%2F')).toBe('/api/auth/verify-email?token=[redacted]&callbackURL=[redacted]');
    expect(redactUrl('/api/auth/callback/google?code=4%2F0Ab&state=xyz')).toBe('/api/auth/callback/google?code=[redacted]&state=[redacted]');
    expect(redactUrl('/api/admin/users?page=2&pageSize=20&search=123.456.789-09')).toBe('/api/admin/users?page=2&pageSize=20&search=[redacted]');
    expect(redactUrl('/api/x?flag&resetToken=t')).toBe('/api/x?flag&resetToken=[redacted]');
  });
});

describe('database errors in the log', () => {
  /** What node-postgres and PGlite throw: the server's fields, the offending value quoted in message and detail. */
  function serverError() {
    return Object.assign(new Error('duplicate key value violates unique constraint "users_cpf_unique"'), {
      severity: 'ERROR',
      code: '23505',
      detail: 'Key (cpf)=(52998224725) already exists.',
      constraint: 'users_cpf_unique',
      table: 'users',
      query: 'insert into users (cpf) values ($1)',
      params: ['52998224725'],
    });
  }

  it('keeps the SQLSTATE, statement, constraint and table, never the message, detail or parameters', () => {
    const wrapped = new DrizzleQueryError('insert into "users" ("cpf") values ($1)', ['52998224725'], serverError());
    const logged = serializeError(wrapped);
    expect(logged).toMatchObject({ code: '23505', statement: 'insert into "users" ("cpf") values ($1)', constraint: 'users_cpf_unique', table: 'users' });
    expect(JSON.stringify(logged)).not.toContain('52998224725');

    const bare = serializeError(serverError());
    expect(bare).toMatchObject({ code: '23505', statement: 'insert into users (cpf) values ($1)' });
    expect(JSON.stringify(bare)).not.toContain('52998224725');
  });

  it('finds a database error under other errors that wrap it', () => {
    const outer = new Error('failed to create user: 52998224725', { cause: new DrizzleQueryError('select $1::int', ['52998224725'], serverError()) });
    const logged = serializeError(outer);
    expect(logged.code).toBe('23505');
    expect(JSON.stringify(logged)).not.toContain('52998224725');
  });

  it('logs any other error as pino does', () => {
    const logged = serializeError(new TypeError('boom'));
    expect(logged).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect(logged.stack).toContain('TypeError: boom');
  });
});
