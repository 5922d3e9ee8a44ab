import { createSecretBox, type SecretBox } from '../../lib/secret-box.ts';

/** The secret box purpose of card secrets: a key of their own, derived from the auth secret. */
export const CARD_SECRET_PURPOSE = 'card-secret';

export function createCardSecretBox(authSecret: string): SecretBox {
  return createSecretBox(authSecret, CARD_SECRET_PURPOSE);
}

let processBox: SecretBox | null = null;

/**
 * The deployment's card box, set once by buildApp. Cards are issued from places that hold only a transaction (the
 * payment webhook's `issueCardsForSubscription(tx, id)`), and the key depends only on the deployment's auth secret,
 * which is the same for every app a process builds.
 */
export function useCardSecretBox(box: SecretBox): void {
  processBox = box;
}

export function cardSecretBox(): SecretBox {
  if (!processBox) throw new Error('card secret box not configured: buildApp sets it (useCardSecretBox)');
  return processBox;
}
