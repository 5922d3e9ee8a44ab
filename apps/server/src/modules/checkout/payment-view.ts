import type { Payment } from '@carteirinha/shared/contracts/payments';
import { PAID_PAYMENT_STATUSES } from '@carteirinha/shared/contracts/payments';
import type { payments } from '../../db/schema.ts';

type PaymentRow = typeof payments.$inferSelect;

/** The web's printable boleto page for a charge of the embedded provider (it has no bank's PDF). */
export function localBoletoUrl(paymentId: string): string {
  return `/paciente/assinatura/boleto/${paymentId}`;
}

/** Our receipt page for a paid charge. */
export function receiptUrlOf(paymentId: string): string {
  return `/paciente/assinatura/recibo/${paymentId}`;
}

function isPaid(row: PaymentRow): boolean {
  return PAID_PAYMENT_STATUSES.some((status) => status === row.status) || row.paidAt !== null;
}

/**
 * A charge as its payer sees it (paymentSchema): never a card number, only the summary. The receipt is ours once the
 * charge was paid (a refunded one keeps its receipt: it was paid); 'Simular pagamento' is offered for the embedded
 * provider's open charges only.
 */
export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    status: row.status,
    method: row.method,
    amountCents: row.amountCents,
    adhesionFeeCents: row.adhesionFeeCents,
    dueDate: row.dueDate,
    paidAt: row.paidAt?.toISOString() ?? null,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    pixQrCode: row.pixQrCodePng,
    pixCopyPaste: row.pixPayload,
    boletoUrl: row.boletoUrl,
    boletoDigitableLine: row.boletoDigitableLine,
    invoiceUrl: row.invoiceUrl,
    cardSummary: row.cardSummary,
    receiptUrl: isPaid(row) ? receiptUrlOf(row.id) : null,
    canSimulate: row.provider === 'local' && (row.status === 'pending' || row.status === 'overdue'),
    planChange: row.planChangeId !== null,
    createdAt: row.createdAt.toISOString(),
  };
}
