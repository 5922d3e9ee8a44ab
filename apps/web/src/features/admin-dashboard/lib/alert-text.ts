import type { AdminDashboard } from '@carteirinha/shared/contracts/dashboard';
import { formatDate } from '@carteirinha/shared/format';

export type DashboardAlert = AdminDashboard['alerts'][number];

/** The pt-BR line the dashboard shows for an alert. */
export function alertText(alert: DashboardAlert): string {
  switch (alert.kind) {
    case 'trial_ending':
      return alert.date ? `Trial de ${alert.clinicName} termina em ${formatDate(alert.date)}` : `Trial de ${alert.clinicName} termina em breve`;
    case 'pending_approval':
      return `${alert.clinicName} aguarda aprovação`;
    case 'suspended':
      return `${alert.clinicName} está suspensa`;
    case 'overdue_payments':
      return alert.date ? `${alert.clinicName} tem pagamentos em atraso desde ${formatDate(alert.date)}` : `${alert.clinicName} tem pagamentos em atraso`;
  }
}
