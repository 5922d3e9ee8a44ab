import { ALERT_KINDS, type AdminDashboard, type DashboardAlert } from '@carteirinha/shared/contracts/dashboard';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { AlertTriangleIcon, BanIcon, ClockIcon, HandCoinsIcon, UserCheckIcon, WebhookIcon, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { APPROVE_REGISTRATIONS_PATH, clinicsSearchPath } from '@/lib/admin-links';
import { alertText } from '../lib/alert-text';

const t = messages.adminClinics.alerts;

const ALERT_ICONS: Record<DashboardAlert['kind'], LucideIcon> = {
  payment_held: HandCoinsIcon,
  webhook_failed: WebhookIcon,
  trial_ending: ClockIcon,
  pending_approval: UserCheckIcon,
  suspended: BanIcon,
  overdue_payments: AlertTriangleIcon,
};

/**
 * Where an alert leads: a sign-up awaiting approval opens 'Aprovar Cadastro'; anything else opens the clinics list
 * searched for that clinic (all clinics when the alert names none).
 */
function alertTarget(alert: DashboardAlert): string {
  if (alert.kind === 'pending_approval') return APPROVE_REGISTRATIONS_PATH;
  return alert.clinicName === null ? '/admin/clinicas' : clinicsSearchPath(alert.clinicName);
}

/** How many alerts the server counted but did not send: it lists a few of each kind. */
function unlistedAlerts(alerts: DashboardAlert[], totals: AdminDashboard['alertTotals']): number {
  return ALERT_KINDS.reduce((sum, kind) => sum + Math.max(0, totals[kind] - alerts.filter((alert) => alert.kind === kind).length), 0);
}

type DashboardAlertsProps = {
  /** undefined while the dashboard loads. */
  alerts: DashboardAlert[] | undefined;
  totals: AdminDashboard['alertTotals'] | undefined;
};

/**
 * What needs the admin's attention: late payments, trials ending, registrations to approve, suspensions. Each alert is
 * a link to what it names.
 */
export function DashboardAlerts({ alerts, totals }: DashboardAlertsProps) {
  const unlisted = alerts && totals ? unlistedAlerts(alerts, totals) : 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2>{t.title}</h2>
        </CardTitle>
        <CardDescription>{t.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {alerts === undefined ? (
          <p className="text-sm text-muted-foreground">{messages.common.loading}</p>
        ) : alerts.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t.none}</p>
        ) : (
          <ul className="space-y-3" aria-label={t.title}>
            {alerts.map((alert) => {
              const Icon = ALERT_ICONS[alert.kind];
              return (
                <li key={`${alert.kind}-${alert.clinicId ?? 'platform'}`} className="flex items-start gap-3 text-sm">
                  <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                  <Link to={alertTarget(alert)} className="min-w-0 break-words text-primary-text underline-offset-4 hover:underline">
                    {alertText(alert)}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        {unlisted > 0 ? (
          <Link to="/admin/clinicas" className="text-sm text-primary underline-offset-4 hover:underline">
            {formatMessage(messages.adminClinics.moreAlerts, { count: unlisted })}
          </Link>
        ) : null}
      </CardContent>
    </Card>
  );
}
