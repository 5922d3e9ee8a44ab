import { createSecretBox, type SecretBox } from '../../lib/secret-box.ts';

/** The secret box purpose of card secrets: a key of their own, derived from the auth secret. */
export const CARD_SECRET_PURPOSE = 'card-secret';

/**
 * The deployment's card box. buildApp makes one and hands it to what issues cards (payment settlement, the seed) and
 * what reads their secrets (the card routes); two apps in one process each hold their own.
 */
export function createCardSecretBox(authSecret: string): SecretBox {
  return createSecretBox(authSecret, CARD_SECRET_PURPOSE);
}
