import type { PaymentStatus } from '@carteirinha/shared/contracts/payments';

/**
 * What a provider event (or a reconciliation finding, or the delinquency job) asks of our ledger (ADR 013). Each
 * Asaas event maps to one of these; anything else is stored and marked processed with no change.
 */
export type LedgerAction =
  | 'create'
  | 'update'
  | 'settleReceived'
  | 'settleConfirmed'
  | 'overdue'
  | 'refund'
  | 'chargeback'
  | 'delete'
  | 'restore'
  | 'endSubscription'
  | 'ignore';

/** ADR 013's mapping table, event by event. */
const ACTIONS_BY_EVENT: Record<string, LedgerAction> = {
  PAYMENT_CREATED: 'create',
  PAYMENT_UPDATED: 'update',
  // Pix and boleto settle on RECEIVED (money in the account); a card on CONFIRMED (captured, money later).
  PAYMENT_RECEIVED: 'settleReceived',
  PAYMENT_CONFIRMED: 'settleConfirmed',
  PAYMENT_OVERDUE: 'overdue',
  PAYMENT_REFUNDED: 'refund',
  PAYMENT_CHARGEBACK_REQUESTED: 'chargeback',
  PAYMENT_CHARGEBACK_DISPUTE: 'chargeback',
  PAYMENT_AWAITING_CHARGEBACK_REVERSAL: 'chargeback',
  PAYMENT_DELETED: 'delete',
  PAYMENT_RESTORED: 'restore',
  SUBSCRIPTION_INACTIVATED: 'endSubscription',
  SUBSCRIPTION_DELETED: 'endSubscription',
};

/** The events the ledger acts on: what a clinic's own webhook asks Asaas to send (the rest would be stored for nothing). */
export const LEDGER_EVENTS: readonly string[] = Object.keys(ACTIONS_BY_EVENT);

export function actionOfEvent(event: string): LedgerAction {
  return ACTIONS_BY_EVENT[event] ?? 'ignore';
}

/** The event a charge's status at the provider stands for: how reconciliation replays a lost webhook. */
const EVENT_BY_PROVIDER_STATUS: Record<string, string> = {
  PENDING: 'PAYMENT_CREATED',
  AWAITING_RISK_ANALYSIS: 'PAYMENT_CREATED',
  RECEIVED: 'PAYMENT_RECEIVED',
  RECEIVED_IN_CASH: 'PAYMENT_RECEIVED',
  CONFIRMED: 'PAYMENT_CONFIRMED',
  OVERDUE: 'PAYMENT_OVERDUE',
  REFUNDED: 'PAYMENT_REFUNDED',
  CHARGEBACK_REQUESTED: 'PAYMENT_CHARGEBACK_REQUESTED',
  CHARGEBACK_DISPUTE: 'PAYMENT_CHARGEBACK_DISPUTE',
  AWAITING_CHARGEBACK_REVERSAL: 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL',
  DELETED: 'PAYMENT_DELETED',
};

/** null: a status that asks nothing of the ledger (a refund in progress, dunning): reconciliation leaves it alone. */
export function eventOfProviderStatus(status: string): string | null {
  return EVENT_BY_PROVIDER_STATUS[status] ?? null;
}

/** The charge status an action leads to; null for actions that do not move the charge's status. */
export function targetStatusOf(action: LedgerAction): PaymentStatus | null {
  switch (action) {
    case 'settleReceived':
      return 'received';
    case 'settleConfirmed':
      return 'confirmed';
    case 'overdue':
      return 'overdue';
    case 'refund':
    case 'chargeback':
      return 'refunded';
    case 'delete':
      return 'canceled';
    case 'restore':
      return 'pending';
    case 'create':
    case 'update':
    case 'endSubscription':
    case 'ignore':
      return null;
  }
}

/**
 * The charge's own precedence, not the order events arrive in: paid beats overdue (a late OVERDUE never un-pays),
 * received beats confirmed (a card's money arriving), refunded beats paid, and a deleted charge that was paid anyway
 * counts as paid. A charge only ever climbs this ladder; the one way down is PAYMENT_RESTORED of a deleted charge.
 */
export const PAYMENT_STATUS_RANK: Record<PaymentStatus, number> = {
  pending: 0,
  overdue: 1,
  canceled: 2,
  confirmed: 3,
  received: 4,
  refunded: 5,
};

export function isPaidStatus(status: PaymentStatus): boolean {
  return status === 'confirmed' || status === 'received';
}

export function isOpenStatus(status: PaymentStatus): boolean {
  return status === 'pending' || status === 'overdue';
}

/** Whether a charge in `from` moves to `to`. */
export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  if (from === 'canceled' && to === 'pending') return true;
  return PAYMENT_STATUS_RANK[to] > PAYMENT_STATUS_RANK[from];
}

/**
 * Whether this move settles the charge for the first time, and so extends the subscription by one cycle: only from
 * an unpaid state. A RECEIVED after a CONFIRMED of the same charge, or any event after a refund, extends nothing.
 */
export function isFirstSettlement(from: PaymentStatus, to: PaymentStatus): boolean {
  return isPaidStatus(to) && !isPaidStatus(from) && from !== 'refunded' && canMove(from, to);
}

/** Whether this move takes back money that had been counted (a refund or chargeback of a paid charge). */
export function isReversal(from: PaymentStatus, to: PaymentStatus): boolean {
  return to === 'refunded' && isPaidStatus(from);
}
