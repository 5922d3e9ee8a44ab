import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { meResponseSchema, type MeResponse } from '@carteirinha/shared/contracts/me';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { clinics } from '../../db/schema.ts';
import { requireContext } from '../../plugins/access-control.ts';

async function clinicBrand(db: Database, clinicId: string | null): Promise<MeResponse['clinic']> {
  if (!clinicId) return null;
  const [row] = await db
    // The name the clinic shows its people (branding), falling back to its legal name.
    .select({ id: clinics.id, name: sql<string>`coalesce(${clinics.displayName}, ${clinics.name})`, slug: clinics.slug, status: clinics.status, trialEndsAt: clinics.trialEndsAt })
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ? { ...row, trialEndsAt: row.trialEndsAt?.toISOString() ?? null } : null;
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
    async (request) => {
      const ctx = requireContext(request);
      return {
        user: { id: ctx.userId, email: ctx.email, fullName: ctx.fullName, emailVerified: ctx.emailVerified },
        role: ctx.role,
        clinic: await clinicBrand(db, ctx.clinicId),
        twoFactor: ctx.twoFactor,
      };
    },
  );
};
