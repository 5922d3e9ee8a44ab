import { describe, expect, it } from 'vitest';
import { DEFAULT_SMTP_PORTS, loadConfig, tileOriginOf } from './config.ts';

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

describe('JOBS_ENABLED', () => {
  it('runs the background jobs unless turned off', () => {
    expect(loadConfig({}).jobsEnabled).toBe(true);
    expect(loadConfig({ JOBS_ENABLED: 'false' }).jobsEnabled).toBe(false);
    expect(loadConfig({ JOBS_ENABLED: '0' }).jobsEnabled).toBe(false);
    expect(loadConfig({ JOBS_ENABLED: 'true' }).jobsEnabled).toBe(true);
    expect(() => loadConfig({ JOBS_ENABLED: 'sim' })).toThrow(/JOBS_ENABLED/);
  });
});

describe('the payment provider (issue 14)', () => {
  it('defaults to the embedded local provider, the Asaas sandbox and a fresh webhook token per start', () => {
    const first = loadConfig({}).payments;
    expect(first.provider).toBe('local');
    expect(first.asaas).toEqual({ apiKey: undefined, baseUrl: 'https://api-sandbox.asaas.com/v3', platformWalletId: undefined });
    expect(first.pixKey).toBeUndefined();
    expect(first.webhookToken.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}).payments.webhookToken).not.toBe(first.webhookToken);
  });

  it('reads the Asaas settings and keeps a given webhook token', () => {
    const payments = loadConfig({
      PAYMENT_PROVIDER: 'asaas',
      ASAAS_API_KEY: '$aact_chave_da_plataforma',
      ASAAS_BASE_URL: 'https://api.asaas.com/v3/',
      ASAAS_WEBHOOK_TOKEN: 'token-do-webhook-com-tamanho',
      ASAAS_PLATFORM_WALLET_ID: 'c0c1a1de-0000-4000-8000-000000000001',
      PIX_KEY: 'financeiro@clinica.com.br',
    }).payments;
    expect(payments).toEqual({
      provider: 'asaas',
      asaas: { apiKey: '$aact_chave_da_plataforma', baseUrl: 'https://api.asaas.com/v3', platformWalletId: 'c0c1a1de-0000-4000-8000-000000000001' },
      webhookToken: 'token-do-webhook-com-tamanho',
      pixKey: 'financeiro@clinica.com.br',
    });
  });

  it('refuses Asaas without a webhook token, an unknown provider and a Pix key that is not one', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'asaas' })).toThrow(/ASAAS_WEBHOOK_TOKEN/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ PIX_KEY: 'não é chave' })).toThrow(/PIX_KEY/);
  });
});

describe('the network map’s tiles (ADR 024)', () => {
  it('default to OpenStreetMap’s, with its attribution', () => {
    const config = loadConfig({});
    expect(config.mapTiles.url).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(config.mapTiles.attribution).toContain('OpenStreetMap');
  });

  it('take a tile server of the operator’s, and name its origin for the CSP', () => {
    const config = loadConfig({ MAP_TILE_URL: 'https://{s}.tiles.exemplo.com.br/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: 'Mapas Exemplo' });
    expect(config.mapTiles).toEqual({ url: 'https://{s}.tiles.exemplo.com.br/{z}/{x}/{y}.png', attribution: 'Mapas Exemplo' });
    expect(tileOriginOf(config.mapTiles.url)).toBe('https://*.tiles.exemplo.com.br');
    expect(tileOriginOf('http://127.0.0.1:4912/tiles/{z}/{x}/{y}.png')).toBe('http://127.0.0.1:4912');
    expect(tileOriginOf('/tiles/{z}/{x}/{y}.png')).toBeNull();
  });

  it('refuse a URL without {z}, {x} and {y}, or not on http(s)', () => {
    expect(() => loadConfig({ MAP_TILE_URL: 'https://tiles.exemplo.com.br/mapa.png' })).toThrow(/MAP_TILE_URL/);
    expect(() => loadConfig({ MAP_TILE_URL: 'javascript:alert(1)/{z}/{x}/{y}' })).toThrow(/MAP_TILE_URL/);
  });
});
