import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billingSettingsSchema, GRACE_DAYS_DEFAULT, updateBillingSettingsRequestSchema, type BillingSettings, type UpdateBillingSettingsRequest } from '@carteirinha/shared/contracts/payments';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { clinicSettings } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { requireTenant } from '../../plugins/access-control.ts';

type BillingSettingsOptions = {
  db: Database;
  /** createClinicAsaasKeyBox(authSecret): seals the clinic's Asaas key (providers/index.ts opens it). */
  keyBox: SecretBox;
};

const errors = errorResponses(400, 401, 403);

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

/** The columns a save writes: the key only when one is given or cleared, the wallet only when named. */
function changesOf(body: UpdateBillingSettingsRequest, keyBox: SecretBox) {
  const changes: { graceDays: number; asaasApiKeyEncrypted?: string | null; asaasWalletId?: string | null; updatedAt: Date } = {
    graceDays: body.graceDays,
    updatedAt: new Date(),
  };
  if (body.asaasApiKey !== undefined) changes.asaasApiKeyEncrypted = body.asaasApiKey === '' ? null : keyBox.seal(body.asaasApiKey);
  if (body.asaasWalletId !== undefined) changes.asaasWalletId = body.asaasWalletId || null;
  return changes;
}

/**
 * The clinic admin's billing settings (issue 14): the grace period before an overdue subscription's cards stop
 * validating, and the clinic's own Asaas account (each clinic is its own merchant). The API key is write-only:
 * sealed before it is stored, never answered, never logged.
 */
export const billingSettingsRoutes: FastifyPluginAsyncZod<BillingSettingsOptions> = async (app, { db, keyBox }) => {
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
        summary: 'Altera a carência e a conta Asaas da clínica (a chave de API nunca é devolvida)',
        body: updateBillingSettingsRequestSchema,
        response: { 200: billingSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const changes = changesOf(request.body, keyBox);
      const settings = await withTenantScope(db, tenant.clinicId, async (tx) => {
        await tx
          .insert(clinicSettings)
          .values({ clinicId: tenant.clinicId, ...changes })
          .onConflictDoUpdate({ target: clinicSettings.clinicId, set: changes });
        return billingSettingsOf(tx, tenant.clinicId);
      });
      const asaasKey = keyChangeOf(request.body);
      await recordAudit(db, {
        actorUserId: tenant.userId,
        action: 'clinic.billing_settings_updated',
        entity: 'clinic',
        entityId: tenant.clinicId,
        clinicId: tenant.clinicId,
        details: { graceDays: settings.graceDays, asaasKey, asaasWalletId: settings.asaasWalletId },
      });
      request.log.info({ userId: tenant.userId, clinicId: tenant.clinicId, asaasKey }, 'clinic.billing_settings_updated');
      return settings;
    },
  );
};
