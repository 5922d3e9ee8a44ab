import { eq } from 'drizzle-orm';
import { messages } from '@carteirinha/shared/messages';
import type { PaymentsConfig } from '../../../config.ts';
import type { Database } from '../../../db/client.ts';
import { clinics, clinicSettings } from '../../../db/schema.ts';
import { AppError } from '../../../lib/app-error.ts';
import { createSecretBox, type SecretBox } from '../../../lib/secret-box.ts';
import { createAsaasProvider, type AsaasLog, type AsaasProvider } from './asaas.ts';
import { createLocalProvider, type LocalProvider } from './local.ts';
import type { MerchantAccount, PaymentProvider, ProviderName } from './provider.ts';

/** The secret-box purpose under which clinic_settings.asaas_api_key_encrypted is sealed. */
export const CLINIC_ASAAS_KEY_PURPOSE = 'clinic-asaas-key';

/** The secret-box purpose under which clinic_settings.asaas_webhook_token_encrypted is sealed. */
export const CLINIC_WEBHOOK_TOKEN_PURPOSE = 'clinic-asaas-webhook-token';

/** The box of the tokens Asaas sends with each event to a clinic's own webhook. */
export function createClinicWebhookTokenBox(authSecret: string): SecretBox {
  return createSecretBox(authSecret, CLINIC_WEBHOOK_TOKEN_PURPOSE);
}

/** The box that seals and opens the clinics' Asaas keys (one key per purpose, derived from the auth secret). */
export function createClinicAsaasKeyBox(authSecret: string): SecretBox {
  return createSecretBox(authSecret, CLINIC_ASAAS_KEY_PURPOSE);
}

export type PaymentProviders = {
  /** The provider new subscriptions are made with (PAYMENT_PROVIDER). */
  default: PaymentProvider;
  /** The provider a stored row names (`subscriptions.provider`, `payments.provider`): old rows keep theirs. */
  byName: (name: ProviderName) => PaymentProvider;
  /** The embedded provider itself: 'Simular pagamento' pays its charges as a payer would. */
  local: LocalProvider;
  /** What a webhook must carry in `asaas-access-token` (and what the local 'Simular pagamento' sends). */
  webhookToken: string;
  /** Checks a clinic's Asaas key at Asaas before it is stored and answers its account's wallet (asaas.ts). */
  asaasWalletIdOf: (apiKey: string) => Promise<string | null>;
  /** Registers a clinic's own webhook at the Asaas account its key opens (asaas.ts); answers the webhook's id. */
  registerAsaasWebhook: AsaasProvider['registerWebhook'];
};

export type PaymentProviderDeps = { db: Database; log?: AsaasLog; fetch?: typeof fetch; now?: () => Date };

/**
 * Both providers, built once at start-up. Decorate the app with the result (`app.payments`); the core asks
 * `byName(row.provider)` for anything about an existing subscription, `default` for a new one.
 */
export function createPaymentProviders(config: PaymentsConfig, deps: PaymentProviderDeps): PaymentProviders {
  const local = createLocalProvider({ db: deps.db, pixKey: config.pixKey, now: deps.now });
  const asaas = createAsaasProvider({
    baseUrl: config.asaas.baseUrl,
    platformApiKey: config.asaas.apiKey,
    platformWalletId: config.asaas.platformWalletId,
    fetch: deps.fetch,
    log: deps.log,
  });
  const byName = (name: ProviderName): PaymentProvider => (name === 'asaas' ? asaas : local);
  return { default: byName(config.provider), byName, local, webhookToken: config.webhookToken, asaasWalletIdOf: (apiKey) => asaas.accountWalletId(apiKey), registerAsaasWebhook: (apiKey, webhook) => asaas.registerWebhook(apiKey, webhook) };
}

/** The BR Code needs a merchant city; a clinic without one is shown as in Brazil. */
const UNKNOWN_CITY = 'BRASIL';

/**
 * The clinic as a merchant: its own Asaas subaccount key (opened from clinic_settings; null → the platform's key),
 * and the name and city its payers see. Works on the platform connection or inside the clinic's tenant scope.
 */
export async function merchantAccountFor(db: Database, keyBox: SecretBox, clinicId: string): Promise<MerchantAccount> {
  const [row] = await db
    .select({ name: clinics.name, displayName: clinics.displayName, city: clinics.city, sealedKey: clinicSettings.asaasApiKeyEncrypted })
    .from(clinics)
    .leftJoin(clinicSettings, eq(clinicSettings.clinicId, clinics.id))
    .where(eq(clinics.id, clinicId))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return {
    clinicId,
    apiKey: row.sealedKey ? openKey(keyBox, row.sealedKey) : null,
    merchantName: row.displayName?.trim() || row.name,
    merchantCity: row.city?.trim() || UNKNOWN_CITY,
  };
}

function openKey(keyBox: SecretBox, sealed: string): string {
  try {
    return keyBox.open(sealed);
  } catch {
    // Sealed under another AUTH_SECRET (rotated): the clinic admin must paste the key again.
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', messages.paymentProviders.asaasKeyRefused);
  }
}
