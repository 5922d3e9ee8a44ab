import { eq, sql } from 'drizzle-orm';
import { clinicStandingOf } from '@carteirinha/shared/clinic-standing';
import type { MeResponse } from '@carteirinha/shared/contracts/me';
import type { Database } from '../../db/client.ts';
import { clinics } from '../../db/schema.ts';
import type { CallerClinic, RequestContext } from '../../plugins/access-control.ts';
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

/** Who is signed in (GET /api/me, GET /api/session, and the landing page's way in, ADR 019). */
export async function meOf(db: Database, ctx: RequestContext): Promise<MeResponse> {
  return {
    user: { id: ctx.userId, email: ctx.email, fullName: ctx.fullName, emailVerified: ctx.emailVerified },
    role: ctx.role,
    clinic: await clinicBrand(db, ctx),
    twoFactor: ctx.twoFactor,
  };
}
