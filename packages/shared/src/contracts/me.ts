import { z } from 'zod';
import { CLINIC_STANDINGS } from '../clinic-standing.ts';
import { ROLES } from '../roles.ts';

export const clinicBrandSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  status: z.enum(['active', 'trial', 'suspended', 'cancelled']),
  trialEndsAt: z.iso.datetime({ offset: true }).nullable(),
  /** Whether the clinic serves its people now (ADR 010): the portals show a closed clinic's state from this. */
  standing: z.enum(CLINIC_STANDINGS),
  /** A self-service sign-up that 'Aprovar Cadastro' has not accepted yet: its site takes no patients. */
  awaitingApproval: z.boolean(),
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
  /** `passkey`: the user has a passkey, which passes the second factor too (ADR 029): no TOTP enrolment is asked. */
  twoFactor: z.object({ required: z.boolean(), enabled: z.boolean(), verified: z.boolean(), passkey: z.boolean() }),
});
export type MeResponse = z.infer<typeof meResponseSchema>;
