import { describe, expect, it } from 'vitest';
import { isWellFormedHost } from './host-site.ts';

describe('isWellFormedHost', () => {
  it.each(['localhost', 'localhost:3000', 'demo.localhost:3000', 'clinica.exemplo.com.br', 'EXEMPLO.COM', '127.0.0.1:80', '[::1]:3000', 'app_interno'])(
    'accepts %s',
    (host) => expect(isWellFormedHost(host)).toBe(true),
  );

  it.each([
    'user@demo.localhost',
    'user:senha@localhost:3000',
    'local host',
    'localhost:abc',
    'localhost:99999',
    'a\u0000b',
    'a%00b.localhost',
    'localhost/x',
    '[::1',
    '[zz]:80',
    'ação.com',
    '',
    `${'a'.repeat(300)}.com`,
  ])('refuses %j', (host) => expect(isWellFormedHost(host)).toBe(false));

  it('refuses a missing Host', () => {
    expect(isWellFormedHost(undefined)).toBe(false);
  });
});
