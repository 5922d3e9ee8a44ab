import { z } from 'zod';
import { ROLES } from '../roles.ts';

export const clinicBrandSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  status: z.enum(['active', 'trial', 'suspended', 'cancelled']),
  trialEndsAt: z.iso.datetime({ offset: true }).nullable(),
});

/** GET /api/me: who is signed in, with which role and clinic. `role` is null for a user with no role yet. */
export const meResponseSchema = z.object({
  user: z.object({
    id: z.uuid(),
    email: z.string(),
    fullName: z.string(),
    emailVerified: z.boolean(),
  }),
  role: z.enum(ROLES).nullable(),
  clinic: clinicBrandSchema.nullable(),
  /**
   * `required` and not `enabled`: the user must enrol a TOTP factor before using the portal; `enabled` and not
   * `verified`: this session must still pass the code (a sign-in that did not ask for it, such as Google's).
   */
  twoFactor: z.object({ required: z.boolean(), enabled: z.boolean(), verified: z.boolean() }),
});
export type MeResponse = z.infer<typeof meResponseSchema>;
