import { describe, expect, it } from 'vitest';
import { isAllowedSmtpAddress, resolveSmtpTarget, smtpFailureKindOf, type Lookup } from './smtp-target.ts';

const PORTS = [25, 465, 587, 2525];

/** A resolver that answers from a table, as a DNS server the attacker controls would. */
function fakeDns(table: Record<string, string[]>): Lookup {
  return async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('the SMTP target rule', () => {
  it('allows public unicast addresses and refuses private, link-local, metadata, multicast and unspecified ones', () => {
    for (const address of ['203.0.114.10', '8.8.8.8', '2a00:1450:4001:80b::201a']) expect(isAllowedSmtpAddress(address, false)).toBe(true);
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '127.0.0.1',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
    ]) {
      expect(isAllowedSmtpAddress(address, false), address).toBe(false);
    }
  });

  it('lets a loopback relay through only when typed as one', async () => {
    const lookup = fakeDns({ localhost: ['127.0.0.1'], 'rebind.example': ['127.0.0.1'] });
    expect(await resolveSmtpTarget({ host: 'localhost', port: 25 }, PORTS, lookup)).toEqual({ ok: true, target: { address: '127.0.0.1', servername: 'localhost' } });
    expect(await resolveSmtpTarget({ host: '127.0.0.1', port: 25 }, PORTS, lookup)).toEqual({ ok: true, target: { address: '127.0.0.1', servername: undefined } });
    expect(await resolveSmtpTarget({ host: '::1', port: 25 }, PORTS, lookup)).toMatchObject({ ok: true });
    expect(await resolveSmtpTarget({ host: 'rebind.example', port: 25 }, PORTS, lookup)).toMatchObject({ ok: false, kind: 'address_not_allowed' });
  });

  it('checks the port before anything else, and only SMTP ports pass', async () => {
    const lookup: Lookup = async () => {
      throw new Error('the resolver must not be asked for a refused port');
    };
    for (const port of [22, 80, 443, 5432, 6379, 8080]) {
      expect(await resolveSmtpTarget({ host: 'smtp.example.com', port }, PORTS, lookup)).toMatchObject({ ok: false, kind: 'port_not_allowed' });
    }
  });

  it('refuses a name when any of its addresses is refused, and connects to the address it checked', async () => {
    const lookup = fakeDns({ 'smtp.example.com': ['203.0.114.10'], 'mixed.example': ['203.0.114.10', '10.1.2.3'], 'meta.example': ['169.254.169.254'] });
    expect(await resolveSmtpTarget({ host: 'SMTP.Example.com', port: 587 }, PORTS, lookup)).toEqual({
      ok: true,
      target: { address: '203.0.114.10', servername: 'smtp.example.com' },
    });
    expect(await resolveSmtpTarget({ host: 'mixed.example', port: 587 }, PORTS, lookup)).toMatchObject({ ok: false, kind: 'address_not_allowed' });
    expect(await resolveSmtpTarget({ host: 'meta.example', port: 587 }, PORTS, lookup)).toMatchObject({ ok: false, kind: 'address_not_allowed' });
    expect(await resolveSmtpTarget({ host: 'nowhere.example', port: 587 }, PORTS, lookup)).toMatchObject({ ok: false, kind: 'dns_not_found' });
  });

  it('names the kind of a nodemailer failure from its codes', () => {
    const failure = (code: string, originalCode?: string) => Object.assign(new Error('x'), { code, ...(originalCode ? { originalCode } : {}) });
    expect(smtpFailureKindOf(failure('EAUTH'))).toBe('authentication');
    expect(smtpFailureKindOf(failure('ETLS'))).toBe('tls');
    expect(smtpFailureKindOf(failure('ESOCKET', 'DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe('tls');
    expect(smtpFailureKindOf(failure('ESOCKET', 'ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('tls');
    expect(smtpFailureKindOf(failure('ETIMEDOUT'))).toBe('timeout');
    expect(smtpFailureKindOf(failure('ESOCKET', 'ECONNREFUSED'))).toBe('connection_refused');
    expect(smtpFailureKindOf(failure('EDNS', 'ENOTFOUND'))).toBe('dns_not_found');
    expect(smtpFailureKindOf(failure('EPROTOCOL'))).toBe('other');
    expect(smtpFailureKindOf('not an error')).toBe('other');
  });
});
