/** How a patient pays a charge (specification §7: create-subscription's payment_method). */
export const PAYMENT_METHODS = ['pix', 'boleto', 'credit_card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * A charge's life, after the payment provider's own statuses (Asaas: PENDING, CONFIRMED, RECEIVED, OVERDUE,
 * REFUNDED, and a deleted charge): `confirmed` is a card payment whose money is not yet available.
 */
export const PAYMENT_STATUSES = ['pending', 'confirmed', 'received', 'overdue', 'refunded', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The statuses in which the patient has paid: what counts as a clinic's revenue. */
export const PAID_PAYMENT_STATUSES = ['confirmed', 'received'] as const satisfies readonly PaymentStatus[];
