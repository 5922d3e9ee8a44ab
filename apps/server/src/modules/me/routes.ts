import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clinicStandingOf } from '@carteirinha/shared/clinic-standing';
import { meResponseSchema, type MeResponse } from '@carteirinha/shared/contracts/me';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { clinics } from '../../db/schema.ts';
import { requireContext, type CallerClinic, type RequestContext } from '../../plugins/access-control.ts';
import { isAwaitingApproval } from '../tenancy/host-site.ts';

/** The caller's clinic: already read by the access guard with the role (bench/RESULTS.md, GET /api/me), else here. */
async function clinicBrand(db: Database, ctx: RequestContext): Promise<MeResponse['clinic']> {
  if (ctx.clinic !== undefined) return ctx.clinic ? brandOf(ctx.clinic) : null;
  const clinicId = ctx.clinicId;
  if (!clinicId) return null;
  const [row] = await db
    // The name the clinic shows its people (branding), falling back to its legal name.
    .select({
      id: clinics.id,
      name: sql<string>`coalesce(${clinics.displayName}, ${clinics.name})`,
      slug: clinics.slug,
      status: clinics.status,
      trialEndsAt: clinics.trialEndsAt,
      approvedAt: clinics.approvedAt,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ? brandOf(row) : null;
}

function brandOf(row: CallerClinic): NonNullable<MeResponse['clinic']> {
  const { approvedAt: _approvedAt, ...clinic } = row;
  return {
    ...clinic,
    trialEndsAt: row.trialEndsAt?.toISOString() ?? null,
    standing: clinicStandingOf(row, new Date()),
    awaitingApproval: isAwaitingApproval(row),
  };
}

async function meOf(db: Database, ctx: RequestContext): Promise<MeResponse> {
  return {
    user: { id: ctx.userId, email: ctx.email, fullName: ctx.fullName, emailVerified: ctx.emailVerified },
    role: ctx.role,
    clinic: await clinicBrand(db, ctx),
    twoFactor: ctx.twoFactor,
  };
}

export const meRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/me',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['sessão'],
        summary: 'Quem está logado, com a sua função e clínica',
        response: { 200: meResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => meOf(db, requireContext(request)),
  );

  // The web's session probe, asked on every page load: a signed-out visitor is an answer (null), not an error that
  // the browser would log as a failed request. A session that is refused (expired, another clinic's) is still a 401.
  app.get(
    '/api/session',
    {
      config: { access: 'authenticated', signedOutAllowed: true },
      schema: {
        tags: ['sessão'],
        summary: 'Quem está logado, ou null para um visitante sem sessão',
        response: { 200: meResponseSchema.nullable(), 401: errorResponseSchema },
      },
    },
    async (request) => (request.ctx ? meOf(db, request.ctx) : null),
  );
};
