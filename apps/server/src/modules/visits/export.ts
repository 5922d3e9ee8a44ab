import { setImmediate } from 'node:timers/promises';
import { SERVICE_CATEGORY_LABELS } from '@carteirinha/shared/contracts/services';
import { VISIT_STATUS_LABELS, type Visit, type VisitExportQuery } from '@carteirinha/shared/contracts/visits';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import type { Database } from '../../db/client.ts';
import { visitBatch, type VisitCursor } from './repository.ts';

type Scope = { clinicId: string };

/** The time of day in São Paulo, HH:mm. */
function timeOf(iso: string): string {
  return new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** One line of 'Exportar', in the columns of messages.visitsScreen.csvHeader. */
export function visitCsvRow(visit: Visit): string[] {
  return [
    formatDate(visit.performedAt),
    timeOf(visit.performedAt),
    visit.patientName,
    visit.cardNumber,
    visit.serviceName,
    SERVICE_CATEGORY_LABELS[visit.category],
    visit.professional ?? '',
    formatMoney(visit.originalCents),
    String(visit.discountPercent),
    formatMoney(visit.discountCents),
    formatMoney(visit.finalCents),
    VISIT_STATUS_LABELS[visit.status],
    visit.cancelReason ?? '',
    visit.registeredBy ?? '',
  ];
}

/**
 * Every matching visit, newest first, in keyset batches; the event loop gets a turn between batches so that a long
 * export on the embedded database never holds every other request (as the admin reports do).
 */
export async function* visitExportBatches(db: Database, scope: Scope, query: VisitExportQuery, batchSize = 1000): AsyncGenerator<string[][]> {
  let cursor: VisitCursor | null = null;
  do {
    const batch = await visitBatch(db, scope, query, cursor, batchSize);
    if (batch.rows.length > 0) yield batch.rows.map(visitCsvRow);
    cursor = batch.next;
    await setImmediate();
  } while (cursor);
}
