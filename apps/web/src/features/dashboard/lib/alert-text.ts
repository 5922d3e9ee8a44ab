import type { DashboardAlert } from '@carteirinha/shared/contracts/dashboard';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';

const t = messages.adminClinics.alerts;

/** The pt-BR line the dashboard shows for an alert. */
export function alertText(alert: DashboardAlert): string {
  const name = alert.clinicName ?? '';
  const date = alert.date ? formatDate(alert.date) : '';
  switch (alert.kind) {
    case 'payment_held':
      return formatMessage(t.paymentHeld, { name, date });
    case 'webhook_failed':
      return alert.clinicName === null ? formatMessage(t.webhookFailedNoClinic, { date }) : formatMessage(t.webhookFailed, { name, date });
    case 'trial_ending':
      return alert.date ? formatMessage(t.trialEndsOn, { name, date: formatDate(alert.date) }) : formatMessage(t.trialEndsSoon, { name });
    case 'pending_approval':
      return formatMessage(t.pendingApproval, { name });
    case 'suspended':
      return formatMessage(t.suspended, { name });
    case 'overdue_payments':
      return alert.date ? formatMessage(t.overdueSince, { name, date: formatDate(alert.date) }) : formatMessage(t.overdue, { name });
  }
}
