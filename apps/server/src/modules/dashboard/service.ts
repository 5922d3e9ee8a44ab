import type { Database } from '../../db/client.ts';
import { overduePaymentAlerts, type AlertsOfKind } from './repository.ts';

/**
 * The clinics with overdue charges at `now`, the longest overdue first, up to `limit` of them and how many in all:
 * the admin Dashboard's alerts and, with a longer list, the platform team's 'Pagamentos pendentes' e-mail.
 */
export function overdueClinics(db: Database, now: Date, limit?: number): Promise<AlertsOfKind> {
  return overduePaymentAlerts(db, now, limit);
}
