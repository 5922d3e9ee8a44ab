import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billingSettingsSchema, GRACE_DAYS_DEFAULT, updateBillingSettingsRequestSchema, type BillingSettings, type UpdateBillingSettingsRequest } from '@carteirinha/shared/contracts/payments';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { clinicSettings } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import type { AsaasWebhook } from './providers/asaas.ts';
import { LEDGER_EVENTS } from './state-machine.ts';
import { clinicWebhookPath } from './webhook-routes.ts';

type BillingSettingsOptions = {
  db: Database;
  /** createClinicAsaasKeyBox(authSecret): seals the clinic's Asaas key (providers/index.ts opens it). */
  keyBox: SecretBox;
  /**
   * Checks a key at Asaas and answers its account's wallet (PaymentProviders.asaasWalletIdOf). Asked whatever
   * PAYMENT_PROVIDER is: an Asaas key is only ever used at Asaas, and the embedded provider needs none.
   */
  asaasWalletIdOf: (apiKey: string) => Promise<string | null>;
  /** Registers the clinic's own webhook at its Asaas account (PaymentProviders.registerAsaasWebhook). */
  registerAsaasWebhook: (apiKey: string, webhook: AsaasWebhook) => Promise<string>;
  /** Seals the token Asaas will send to the clinic's own webhook URL. */
  webhookTokenBox: SecretBox;
  /** The platform's address: the clinic's webhook URL is built from it, never from the request. */
  publicUrl: string;
  /** Where Asaas writes when it cannot deliver (the platform's support address, from Configurações). */
  webhookEmail: () => Promise<string>;
  now: () => Date;
};

/** The clinic's own webhook, registered at its Asaas account when it connects (ADR 013): its id and sealed token. */
type RegisteredWebhook = { id: string; sealedToken: string };

/** A fresh token for the clinic's webhook: 32 random bytes, the size of the keys we seal. */
function newWebhookToken(): string {
  return randomBytes(32).toString('base64url');
}

const errors = errorResponses(400, 401, 403, 422, 503);

async function billingSettingsOf(db: Database, clinicId: string): Promise<BillingSettings> {
  const [row] = await db
    .select({ graceDays: clinicSettings.graceDays, sealedKey: clinicSettings.asaasApiKeyEncrypted, asaasWalletId: clinicSettings.asaasWalletId })
    .from(clinicSettings)
    .where(eq(clinicSettings.clinicId, clinicId))
    .limit(1);
  if (!row) return { graceDays: GRACE_DAYS_DEFAULT, asaasConnected: false, asaasWalletId: null };
  return { graceDays: row.graceDays, asaasConnected: row.sealedKey !== null, asaasWalletId: row.asaasWalletId };
}

type KeyChange = 'unchanged' | 'connected' | 'disconnected';

function keyChangeOf(body: UpdateBillingSettingsRequest): KeyChange {
  if (body.asaasApiKey === undefined) return 'unchanged';
  return body.asaasApiKey === '' ? 'disconnected' : 'connected';
}

/**
 * The columns a save writes: the key only when one is given or cleared, the wallet only when named. A key that was
 * just checked brings its account's wallet, which wins over a typed one (it is Asaas's own answer for that key).
 */
function changesOf(body: UpdateBillingSettingsRequest, keyBox: SecretBox, checkedWalletId: string | null, webhook: RegisteredWebhook | null, now: Date) {
  const changes: {
    graceDays: number;
    asaasApiKeyEncrypted?: string | null;
    asaasWalletId?: string | null;
    asaasWebhookId?: string | null;
    asaasWebhookTokenEncrypted?: string | null;
    asaasWebhookRegisteredAt?: Date | null;
    updatedAt: Date;
  } = { graceDays: body.graceDays, updatedAt: now };
  if (body.asaasApiKey !== undefined) changes.asaasApiKeyEncrypted = body.asaasApiKey === '' ? null : keyBox.seal(body.asaasApiKey);
  // A new key comes with its webhook; disconnecting forgets it (its token then opens nothing here).
  if (body.asaasApiKey !== undefined) {
    changes.asaasWebhookId = webhook?.id ?? null;
    changes.asaasWebhookTokenEncrypted = webhook?.sealedToken ?? null;
    changes.asaasWebhookRegisteredAt = webhook ? now : null;
  }
  if (body.asaasWalletId !== undefined) changes.asaasWalletId = body.asaasWalletId || null;
  if (checkedWalletId !== null) changes.asaasWalletId = checkedWalletId;
  return changes;
}

/**
 * The clinic admin's billing settings (issue 14): the grace period before an overdue subscription's cards stop
 * validating, and the clinic's own Asaas account (each clinic is its own merchant). The API key is write-only:
 * sealed before it is stored, never answered, never logged.
 */
export const billingSettingsRoutes: FastifyPluginAsyncZod<BillingSettingsOptions> = async (app, options) => {
  const { db, keyBox, asaasWalletIdOf } = options;

  /**
   * The clinic's own webhook at the Asaas account its key opens, registered before anything is written: its events
   * then come to its own URL with its own token (ADR 013), and a refusal or an outage changes nothing here.
   */
  async function registerWebhook(clinicId: string, apiKey: string): Promise<RegisteredWebhook> {
    const token = newWebhookToken();
    const id = await options.registerAsaasWebhook(apiKey, {
      url: `${options.publicUrl}${clinicWebhookPath(clinicId)}`,
      authToken: token,
      email: await options.webhookEmail(),
      events: LEDGER_EVENTS,
    });
    return { id, sealedToken: options.webhookTokenBox.seal(token) };
  }

  app.get(
    '/api/clinic/billing-settings',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Configurações de cobrança da clínica', response: { 200: billingSettingsSchema, ...errors } },
    },
    async (request) => {
      const { clinicId } = requireTenant(request);
      return withTenantScope(db, clinicId, (tx) => billingSettingsOf(tx, clinicId));
    },
  );

  app.put(
    '/api/clinic/billing-settings',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Altera a carência e a conta Asaas da clínica (a chave é conferida no Asaas antes de guardada e nunca é devolvida)',
        body: updateBillingSettingsRequestSchema,
        response: { 200: billingSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const asaasKey = keyChangeOf(request.body);
      // Checked before anything is written: a refused key (422) or an unreachable Asaas (503) changes nothing.
      let checkedWalletId: string | null = null;
      let webhook: RegisteredWebhook | null = null;
      if (asaasKey === 'connected' && request.body.asaasApiKey) {
        try {
          checkedWalletId = await asaasWalletIdOf(request.body.asaasApiKey);
          webhook = await registerWebhook(tenant.clinicId, request.body.asaasApiKey);
        } catch (error) {
          request.log.warn({ userId: tenant.userId, clinicId: tenant.clinicId, code: error instanceof AppError ? error.code : 'unknown' }, 'clinic.asaas_key_check_failed');
          throw error;
        }
      }
      const changes = changesOf(request.body, keyBox, checkedWalletId, webhook, options.now());
      const settings = await withTenantScope(db, tenant.clinicId, async (tx) => {
        await tx
          .insert(clinicSettings)
          .values({ clinicId: tenant.clinicId, ...changes })
          .onConflictDoUpdate({ target: clinicSettings.clinicId, set: changes });
        return billingSettingsOf(tx, tenant.clinicId);
      });
      await recordAudit(db, {
        actorUserId: tenant.userId,
        action: 'clinic.billing_settings_updated',
        entity: 'clinic',
        entityId: tenant.clinicId,
        clinicId: tenant.clinicId,
        details: { graceDays: settings.graceDays, asaasKey, asaasKeyChecked: asaasKey === 'connected', asaasWalletId: settings.asaasWalletId, asaasWebhookId: webhook?.id ?? null },
      });
      request.log.info({ userId: tenant.userId, clinicId: tenant.clinicId, asaasKey }, 'clinic.billing_settings_updated');
      return settings;
    },
  );
};
