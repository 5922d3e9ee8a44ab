import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mySubscriptionResponseSchema } from '@carteirinha/shared/contracts/subscriptions';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import type { AutoRenewalState } from '@carteirinha/shared/contracts/auto-renewal';
import { canResumeRenewal, type SubscriptionRow } from './lifecycle.ts';
import { findCancellationSummary, findLatestSubscriptionRow, findPayingCompany } from './repository.ts';
import { toSubscription } from './subscription-view.ts';

/** Meu Perfil's switch: on while it renews by itself; off while the patient may still turn it back on. */
function autoRenewalOf(subscription: SubscriptionRow, now: Date): AutoRenewalState {
  const renews = subscription.status === 'active' && subscription.canceledAt === null && subscription.companyMembershipId === null && subscription.expiresAt !== null;
  if (renews) return 'on';
  return canResumeRenewal(subscription, now) ? 'off' : 'fixed';
}

export const subscriptionRoutes: FastifyPluginAsyncZod<{ db: Database; now: () => Date }> = async (app, { db, now }) => {
  app.get(
    '/api/patient/subscription',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'A assinatura mais recente do paciente',
        response: { 200: mySubscriptionResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const found = await withTenantScope(db, tenant.clinicId, async (tx) => {
        const row = await findLatestSubscriptionRow(tx, tenant);
        if (!row) return null;
        const { companyMembershipId } = row.subscription;
        return { ...toSubscription(row.subscription, row.plan), company: companyMembershipId ? await findPayingCompany(tx, companyMembershipId) : null, autoRenewal: autoRenewalOf(row.subscription, now()) };
      });
      if (!found) return { subscription: null };
      const subscription = found;
      // The audit trail is the platform's: read after the tenant's scope, by the id of a subscription known to be the caller's.
      const cancellation = subscription.canceledAt ? await findCancellationSummary(db, subscription.id) : null;
      return { subscription: { ...subscription, cancellation } };
    },
  );
};
