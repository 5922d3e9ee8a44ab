import { AlertTriangleIcon, BanIcon, ClockIcon, UserCheckIcon, type LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { alertText, type DashboardAlert } from '../lib/alert-text';

const ALERT_ICONS: Record<DashboardAlert['kind'], LucideIcon> = {
  trial_ending: ClockIcon,
  pending_approval: UserCheckIcon,
  suspended: BanIcon,
  overdue_payments: AlertTriangleIcon,
};

/** What needs the admin's attention: trials ending, registrations to approve, suspensions, late payments. */
export function DashboardAlerts({ alerts }: { alerts: DashboardAlert[] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2>Alertas</h2>
        </CardTitle>
        <CardDescription>O que precisa da sua atenção</CardDescription>
      </CardHeader>
      <CardContent>
        {alerts === undefined ? null : alerts.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum alerta no momento</p>
        ) : (
          <ul className="space-y-3" aria-label="Alertas">
            {alerts.map((alert) => {
              const Icon = ALERT_ICONS[alert.kind];
              return (
                <li key={`${alert.kind}-${alert.clinicId}`} className="flex items-start gap-3 text-sm">
                  <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                  <span>{alertText(alert)}</span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
