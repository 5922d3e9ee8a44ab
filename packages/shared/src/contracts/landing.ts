import { z } from 'zod';
import { clinicContactSchema } from './clinics.ts';
import { meResponseSchema } from './me.ts';
import { publicPlatformPlanSchema } from './plans.ts';
import { tenantResponseSchema } from './tenant.ts';

/**
 * What the server hands the landing page's renderer (ADR 019): the answers the browser would otherwise ask for before
 * drawing "/" — GET /api/tenant, GET /api/public/plans (the platform's host only; empty on a clinic's) and
 * GET /api/session — so the HTML arrives with the host's name, colours and plans, and the visitor's way in.
 */
export const landingPageInputSchema = z.object({
  tenant: tenantResponseSchema,
  plans: z.array(publicPlatformPlanSchema),
  me: meResponseSchema.nullable(),
  /** A clinic's site: its opening hours and how to reach it (Configurações); null on the platform's host. */
  contact: clinicContactSchema.nullable(),
});
export type LandingPageInput = z.infer<typeof landingPageInputSchema>;
