import type { RecentClinic } from '@carteirinha/shared/contracts/dashboard';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ClinicStatusBadge } from './clinic-status-badge';

const a = messages.adminClinics;

/** The dashboard's "Clínicas Recentes": the newest clinics with their status and creation date. */
export function RecentClinicsList({ clinics }: { clinics: RecentClinic[] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2>{a.recentClinics}</h2>
        </CardTitle>
        <CardDescription>
          <Link to="/admin/clinicas" className="text-primary underline-offset-4 hover:underline">
            {a.viewAllClinics}
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {clinics === undefined ? (
          <p className="text-sm text-muted-foreground">{messages.common.loading}</p>
        ) : clinics.length === 0 ? (
          <p className="text-sm text-muted-foreground">{messages.empty.clinics}</p>
        ) : (
          <ul className="divide-y" aria-label={a.recentClinicsLabel}>
            {clinics.map((clinic) => (
              <li key={clinic.id} className="flex items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
                <div className="min-w-0">
                  <p className="truncate font-medium">{clinic.name}</p>
                  <p className="text-xs text-muted-foreground">{formatMessage(messages.clinics.createdOn, { date: formatDate(clinic.createdAt) })}</p>
                </div>
                <ClinicStatusBadge status={clinic.status} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
