import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { brandingUpdateSchema, clinicBrandingSchema } from '@carteirinha/shared/contracts/tenant';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { clinics } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { reencodeImage } from '../../lib/images.ts';
import type { Storage } from '../../lib/storage.ts';
import { uploadedImageBytes } from '../../lib/uploads.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import type { HostResolver } from '../tenancy/host-site.ts';

type BrandingOptions = { db: Database; storage: Storage; resolver: HostResolver };

const LOGO_MAX_SIDE = 512;
const errors = errorResponses(400, 401, 403, 404, 413);

async function brandingOf(db: Database, clinicId: string) {
  const [row] = await db
    .select({
      id: clinics.id,
      name: clinics.name,
      displayName: clinics.displayName,
      slug: clinics.slug,
      logoUrl: clinics.logoUrl,
      primaryColor: clinics.primaryColor,
      city: clinics.city,
      state: clinics.state,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  const { displayName, ...rest } = row;
  return { ...rest, name: displayName ?? row.name };
}

/** The clinic admin's white-label settings: display name, primary colour and logo. */
export const brandingRoutes: FastifyPluginAsyncZod<BrandingOptions> = async (app, { db, storage, resolver }) => {
  app.get(
    '/api/clinic/branding',
    {
      config: { access: 'clinic:read' },
      schema: { tags: ['clínica'], summary: 'Identidade visual da clínica', response: { 200: clinicBrandingSchema, ...errors } },
    },
    async (request) => {
      const { clinicId } = requireTenant(request);
      return withTenantScope(db, clinicId, (tx) => brandingOf(tx, clinicId));
    },
  );

  app.patch(
    '/api/clinic/branding',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Altera o nome de exibição e a cor da clínica',
        body: brandingUpdateSchema,
        response: { 200: clinicBrandingSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const branding = await withTenantScope(db, tenant.clinicId, async (tx) => {
        await tx
          .update(clinics)
          .set({ displayName: request.body.displayName, primaryColor: request.body.primaryColor })
          .where(eq(clinics.id, tenant.clinicId));
        return brandingOf(tx, tenant.clinicId);
      });
      await resolver.invalidate();
      request.log.info({ userId: tenant.userId, clinicId: tenant.clinicId }, 'clinic.branding_updated');
      return branding;
    },
  );

  app.post(
    '/api/clinic/branding/logo',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Envia o logo da clínica (imagem até 2 MB, campo "file")',
        consumes: ['multipart/form-data'],
        response: { 200: clinicBrandingSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const logo = await reencodeImage(await uploadedImageBytes(request), { maxSide: LOGO_MAX_SIDE });
      const url = await storage.put(`logos/${tenant.clinicId}-${Date.now()}.webp`, logo);
      const { previous, branding } = await withTenantScope(db, tenant.clinicId, async (tx) => {
        const before = await brandingOf(tx, tenant.clinicId);
        await tx.update(clinics).set({ logoUrl: url }).where(eq(clinics.id, tenant.clinicId));
        return { previous: before, branding: await brandingOf(tx, tenant.clinicId) };
      });
      if (previous.logoUrl) await storage.removeByUrl(previous.logoUrl);
      await resolver.invalidate();
      return branding;
    },
  );
};
