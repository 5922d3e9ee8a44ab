import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mySubscriptionResponseSchema } from '@carteirinha/shared/contracts/subscriptions';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { findCancellationSummary, findLatestSubscription, findPayingCompany } from './repository.ts';

export const subscriptionRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
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
        const latest = await findLatestSubscription(tx, tenant);
        return latest ? { ...latest, company: latest.companyMembershipId ? await findPayingCompany(tx, latest.companyMembershipId) : null } : null;
      });
      if (!found) return { subscription: null };
      const { companyMembershipId: _membership, ...subscription } = found;
      // The audit trail is the platform's: read after the tenant's scope, by the id of a subscription known to be the caller's.
      const cancellation = subscription.canceledAt ? await findCancellationSummary(db, subscription.id) : null;
      return { subscription: { ...subscription, cancellation } };
    },
  );
};
