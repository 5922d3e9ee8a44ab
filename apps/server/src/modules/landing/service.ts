import type { FastifyRequest } from 'fastify';
import type { LandingPageInput } from '@carteirinha/shared/contracts/landing';
import type { Database } from '../../db/client.ts';
import { visitorContext, type AccessDeps } from '../../plugins/access-control.ts';
import { siteOf } from '../../plugins/host-site.ts';
import { clinicContactOf } from '../clinics/clinic-settings.ts';
import { meOf } from '../me/service.ts';
import { plansForSale } from '../plans/service.ts';
import { tenantOf, type TenantAnswerOptions } from '../tenancy/service.ts';

export type LandingDeps = { db: Database; access: AccessDeps; tenant: TenantAnswerOptions };

/**
 * What "/" shows on this host to this visitor (ADR 019), from the services behind GET /api/tenant,
 * GET /api/public/plans and GET /api/session: the page is drawn with the answers the browser would otherwise fetch.
 */
export async function landingInputOf(deps: LandingDeps, request: FastifyRequest): Promise<LandingPageInput> {
  const [tenant, visitor] = await Promise.all([tenantOf(deps.db, siteOf(request), deps.tenant), visitorContext(deps.access, request)]);
  // The platform's plans are sold on its own host only; a clinic's site shows the clinic's (in `tenant`).
  const [plans, contact, me] = await Promise.all([
    tenant.kind === 'platform' ? plansForSale(deps.db) : [],
    tenant.kind === 'clinic' ? clinicContactOf(deps.db, tenant.clinic.id) : null,
    visitor ? meOf(deps.db, visitor) : null,
  ]);
  return { tenant, plans, me, contact };
}
