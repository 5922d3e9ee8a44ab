import { z } from 'zod';
import { FULL_NAME_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { cnpjSchema, hexColorSchema, slugSchema } from '../validators.ts';
import { subscriptionPlanSchema } from './subscription-plans.ts';

/** What a clinic's host shows: its name, logo and colour (DESIGN.md §2 "White-label"). */
export const clinicBrandingSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  logoUrl: z.string().nullable(),
  primaryColor: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
});
export type ClinicBranding = z.infer<typeof clinicBrandingSchema>;

/** The network map's tiles, from the server's configuration (MAP_TILE_URL, MAP_TILE_ATTRIBUTION): ADR 024. */
export const mapTilesSchema = z.object({ url: z.string(), attribution: z.string() });
export type MapTiles = z.infer<typeof mapTilesSchema>;

/** GET /api/tenant: which site this host is — the platform itself, or one clinic with its active patient plans. */
/** `googleSignIn`: 'Login com Google' is on in admin Configurações and the server has Google credentials. */
/**
 * `awaitingApproval`: a self-service sign-up not yet accepted by 'Aprovar Cadastro' — its site shows "Aguardando
 * aprovação" (no plans) and takes no patients; its team can still sign in there.
 */
/** `passwordMinLength`: the shortest new password, from admin Configurações, so the forms say it before the server. */
/** `mapTiles`: where the network map's tiles come from and whose attribution it shows (server configuration, ADR 024). */
/** `captcha`: whether sign-up, reset and a sign-in after failures carry the proof of work (CAPTCHA, ADR 029). */
export const tenantResponseSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('platform'), demoUrl: z.string().nullable(), googleSignIn: z.boolean(), passwordMinLength: z.number().int(), mapTiles: mapTilesSchema, captcha: z.boolean() }),
  z.object({
    kind: z.literal('clinic'),
    clinic: clinicBrandingSchema,
    plans: z.array(subscriptionPlanSchema),
    googleSignIn: z.boolean(),
    awaitingApproval: z.boolean(),
    passwordMinLength: z.number().int(),
    mapTiles: mapTilesSchema,
    captcha: z.boolean(),
  }),
]);
export type TenantResponse = z.infer<typeof tenantResponseSchema>;

/** POST /api/onboarding/clinic: the short form that turns a new account into a clinic in trial. */
export const onboardingClinicSchema = z.object({
  name: z.string().trim().min(FULL_NAME_MIN_LENGTH, messages.tenancy.clinicNameMin).max(120),
  cnpj: cnpjSchema,
  slug: slugSchema,
  planId: z.uuid().optional(),
});
export type OnboardingClinicInput = z.input<typeof onboardingClinicSchema>;

export const onboardingClinicResponseSchema = z.object({
  clinicId: z.uuid(),
  trialEndsAt: z.iso.datetime({ offset: true }),
  url: z.string(),
});

/** GET /api/public/clinics?q=: "Sou paciente" looks a clinic up by name or city. */
export const publicClinicSearchQuerySchema = z.object({
  q: z.string().trim().min(2, messages.tenancy.clinicSearchMin).max(100),
});
export const publicClinicSchema = z.object({
  name: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  url: z.string(),
});
export const publicClinicListSchema = z.object({ items: z.array(publicClinicSchema) });

/** PATCH /api/clinic/branding: the clinic admin's name and colour for the white-label site. */
export const brandingUpdateSchema = z.object({
  displayName: z.string().trim().min(2, messages.tenancy.displayNameMin).max(80),
  primaryColor: hexColorSchema,
});
export type BrandingUpdateInput = z.infer<typeof brandingUpdateSchema>;
