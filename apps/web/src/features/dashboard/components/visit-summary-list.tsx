import type { Visit } from '@carteirinha/shared/contracts/visits';
import { formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Spinner } from '@/components/ui/spinner';
import { VisitStatusBadge } from '@/features/visits/components/visit-status-badge';

const d = messages.clinicDashboard;

type VisitSummaryListProps = {
  title: string;
  emptyText: string;
  /** undefined while they load. */
  visits: readonly Visit[] | undefined;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  /** The final value of each visit: the clinic admin's figure, not the desk's. */
  showAmounts: boolean;
  testId: string;
};

function VisitRow({ visit, showAmounts }: { visit: Visit; showAmounts: boolean }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3">
      <div className="grid min-w-0 gap-0.5">
        <p className="font-medium break-words">{visit.patientName}</p>
        <p className="text-sm text-muted-foreground">
          {visit.serviceName} · <span className="tabular-nums">{formatDateTime(visit.performedAt)}</span>
          {visit.professional ? ` · ${visit.professional}` : null}
        </p>
      </div>
      <div className="flex items-center gap-3">
        {showAmounts ? <span className="text-sm font-medium tabular-nums">{formatMoney(visit.finalCents)}</span> : null}
        <VisitStatusBadge status={visit.status} />
      </div>
    </li>
  );
}

/** A short list of visits on the Dashboard (the recent ones, or today's), with the way to all of them. */
export function VisitSummaryList({ title, emptyText, visits, error, onRetry, retrying, showAmounts, testId }: VisitSummaryListProps) {
  return (
    <Card role="region" aria-label={title} data-testid={testId}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle asChild className="text-lg">
          <h2>{title}</h2>
        </CardTitle>
        <Link to="/clinica/atendimentos" className="text-sm font-medium text-primary-text underline-offset-4 hover:underline">
          {d.seeAllVisits}
        </Link>
      </CardHeader>
      <CardContent aria-busy={visits === undefined && !error}>
        {error ? (
          <ErrorState variant="inline" error={error} onRetry={onRetry} retrying={retrying} />
        ) : visits === undefined ? (
          <Spinner className="mx-auto" />
        ) : visits.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">{emptyText}</p>
        ) : (
          <ul className="divide-y">
            {visits.map((visit) => (
              <VisitRow key={visit.id} visit={visit} showAmounts={showAmounts} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
