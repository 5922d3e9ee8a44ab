import { PAID_PAYMENT_STATUSES, type PaymentStatus } from '@carteirinha/shared/contracts/payments';
import { formatDate } from '@carteirinha/shared/format';

/** Whether the patient has paid this charge (card confirmed or money received). */
export function isPaid(status: PaymentStatus): boolean {
  return PAID_PAYMENT_STATUSES.some((paid) => paid === status);
}

/** A charge the patient can still pay: 'Pagar' reopens its payment dialog. */
export function isOpen(status: PaymentStatus): boolean {
  return status === 'pending' || status === 'overdue';
}

/**
 * A calendar day of the contract ("2026-11-29") as dd/MM/yyyy. Read at noon UTC so that São Paulo's offset never moves
 * it to the day before.
 */
export function formatDay(day: string): string {
  return formatDate(`${day}T12:00:00Z`);
}
