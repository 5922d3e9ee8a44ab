import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.ts';
import { createPaymentProviders } from './index.ts';

describe('createPaymentProviders', () => {
  it('makes new subscriptions with the configured provider and keeps both for existing rows', () => {
    const local = createPaymentProviders(loadConfig({}).payments);
    expect(local.default.name).toBe('local');
    expect(local.byName('asaas').name).toBe('asaas');
    expect(local.byName('local')).toBe(local.default);

    const config = loadConfig({ PAYMENT_PROVIDER: 'asaas', ASAAS_WEBHOOK_TOKEN: 'token-do-webhook-com-tamanho' }).payments;
    const asaas = createPaymentProviders(config);
    expect(asaas.default.name).toBe('asaas');
    expect(asaas.byName('local').name).toBe('local');
    expect(asaas.webhookToken).toBe('token-do-webhook-com-tamanho');
  });
});
