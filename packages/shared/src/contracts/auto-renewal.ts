import { z } from 'zod';

/**
 * The automatic renewal as Meu Perfil's switch shows it: on; off (turned off, and it can be turned back on while the
 * period paid for runs); or not the patient's to switch (never paid, a company pays it, ended, withdrawn). Apart from
 * the subscription contracts, so the profile page's switch carries no card or checkout schema.
 */
export const AUTO_RENEWAL_STATES = ['on', 'off', 'fixed'] as const;
export type AutoRenewalState = (typeof AUTO_RENEWAL_STATES)[number];

/** PUT /api/patient/subscription/auto-renewal's answer: how the renewal stands now. */
export const autoRenewalResponseSchema = z.object({ autoRenewal: z.enum(AUTO_RENEWAL_STATES) });
export type AutoRenewalResponse = z.infer<typeof autoRenewalResponseSchema>;
