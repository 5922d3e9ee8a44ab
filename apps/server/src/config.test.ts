import { describe, expect, it } from 'vitest';
import { DEFAULT_SMTP_PORTS, loadConfig } from './config.ts';

describe('TRUST_PROXY', () => {
  const trustProxyOf = (value: string | undefined) => loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy unless told', () => {
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf('false')).toBe(false);
    expect(trustProxyOf('0')).toBe(false);
  });

  it('takes a hop count or the proxies addresses and CIDRs', () => {
    expect(trustProxyOf('1')).toBe(1);
    expect(trustProxyOf('2')).toBe(2);
    expect(trustProxyOf('10.0.0.0/8, 127.0.0.1,::1,fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    expect(trustProxyOf('loopback')).toEqual(['loopback']);
  });

  it('refuses true, which would believe any client, and says what to set instead', () => {
    expect(() => trustProxyOf('true')).toThrow(/TRUST_PROXY=1\).*TRUST_PROXY=10\.0\.0\.0\/8,127\.0\.0\.1/);
  });

  it('refuses what is neither a count nor an address', () => {
    expect(() => trustProxyOf('10.0.0.0/8,proxy.internal')).toThrow(/proxy\.internal/);
    expect(() => trustProxyOf('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
  });
});

describe('the switches of issue 12 (SMTP ports, outbox in the log, API docs)', () => {
  it('defaults to the SMTP ports, no e-mail bodies in the log and no public API docs', () => {
    const config = loadConfig({});
    expect(config.smtpAllowedPorts).toEqual(DEFAULT_SMTP_PORTS);
    expect(DEFAULT_SMTP_PORTS).toEqual([25, 465, 587, 2525]);
    expect(config.logOutboxEmails).toBe(false);
    expect(config.apiDocs).toBe(false);
    // NODE_ENV alone turns neither on: `npm start` runs as development.
    expect(loadConfig({ NODE_ENV: 'development' }).logOutboxEmails).toBe(false);
  });

  it('reads them when set', () => {
    const config = loadConfig({ SMTP_ALLOWED_PORTS: '587, 2587', LOG_OUTBOX_EMAILS: 'true', API_DOCS: 'true' });
    expect(config.smtpAllowedPorts).toEqual([587, 2587]);
    expect(config.logOutboxEmails).toBe(true);
    expect(config.apiDocs).toBe(true);
    expect(() => loadConfig({ SMTP_ALLOWED_PORTS: '587,smtp' })).toThrow(/SMTP_ALLOWED_PORTS/);
    expect(() => loadConfig({ SMTP_ALLOWED_PORTS: '70000' })).toThrow(/SMTP_ALLOWED_PORTS/);
  });
});
