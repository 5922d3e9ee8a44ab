import type { NextAppointment, PatientHome, PatientVisit } from '@carteirinha/shared/contracts/patient-visits';
import { formatDate, formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CalendarClockIcon, HistoryIcon, MapPinIcon, UsersIcon, type LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

const p = messages.patient;

/** One of Início's three tiles: a titled region, so a screen reader (and a test) finds it by its name. */
function Tile({ title, icon: Icon, children, footer }: { title: string; icon: LucideIcon; children: ReactNode; footer?: ReactNode }) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId} className="gap-3">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle asChild className="text-base">
          <h2 id={titleId}>{title}</h2>
        </CardTitle>
        <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      </CardHeader>
      <CardContent className="grid gap-1 text-sm">{children}</CardContent>
      {footer ? <CardFooter className="mt-auto">{footer}</CardFooter> : null}
    </Card>
  );
}

/** The next visit booked ahead, or how to get one: the clinic's desk books it. */
export function NextAppointmentTile({ appointment, clinicName }: { appointment: NextAppointment | null; clinicName: string | null }) {
  return (
    <Tile title={p.nextAppointment} icon={CalendarClockIcon}>
      {appointment ? (
        <>
          <p className="text-lg font-semibold tabular-nums">{formatDateTime(appointment.performedAt)}</p>
          <p>{appointment.serviceName}</p>
          {appointment.professional ? <p className="text-muted-foreground">{formatMessage(p.nextAppointmentWith, { professional: appointment.professional })}</p> : null}
          <p className="text-muted-foreground">{appointment.placeName}</p>
          {appointment.dependentName ? <p className="text-muted-foreground">{formatMessage(p.nextAppointmentFor, { name: appointment.dependentName })}</p> : null}
        </>
      ) : (
        <>
          <p className="font-medium">{p.noAppointment}</p>
          <p className="text-muted-foreground">{clinicName ? formatMessage(p.noAppointmentHow, { clinic: clinicName }) : p.noAppointmentHowNoClinic}</p>
        </>
      )}
    </Tile>
  );
}

/** The accredited network: how many places the programme has, and the way to them. */
export function NetworkTile({ placesCount }: { placesCount: number }) {
  return (
    <Tile
      title={p.network}
      icon={MapPinIcon}
      footer={
        <Button asChild variant="outline" size="sm">
          <Link to="/paciente/rede">{p.viewNetwork}</Link>
        </Button>
      }
    >
      <p className="text-lg font-semibold tabular-nums" data-testid="network-count">
        {placesCount === 1 ? p.networkCountOne : formatMessage(p.networkCount, { count: placesCount })}
      </p>
      <p className="text-muted-foreground">{p.networkHint}</p>
    </Tile>
  );
}

/** How many dependents the plan covers now, and who; they are managed in Meu Perfil. */
export function DependentsTile({ dependents }: { dependents: PatientHome['dependents'] }) {
  return (
    <Tile
      title={p.dependents}
      icon={UsersIcon}
      footer={
        <Button asChild variant="outline" size="sm">
          <Link to="/paciente/perfil#dependentes">{messages.dependents.manage}</Link>
        </Button>
      }
    >
      <p className="text-lg font-semibold tabular-nums" data-testid="dependents-count">
        {dependents.length}
      </p>
      {dependents.length === 0 ? (
        <p className="text-muted-foreground">{p.noDependents}</p>
      ) : (
        <ul className="grid gap-0.5">
          {dependents.map((dependent) => (
            <li key={dependent.id}>{dependent.fullName}</li>
          ))}
        </ul>
      )}
    </Tile>
  );
}

/** Início's latest visits: where, when, what and how much the card saved. */
export function LatestVisits({ visits }: { visits: readonly PatientVisit[] }) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2 id={titleId}>{p.latestVisits}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {visits.length === 0 ? (
          <p className="text-sm text-muted-foreground">{p.noVisits}</p>
        ) : (
          <ul className="divide-y">
            {visits.map((visit) => (
              <li key={visit.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3 first:pt-0 last:pb-0">
                <div className="min-w-0">
                  <p className="font-medium">{visit.serviceName}</p>
                  <p className="text-sm text-muted-foreground">
                    {visit.placeName} · {formatDate(visit.performedAt)}
                    {visit.dependentName ? ` · ${formatMessage(p.nextAppointmentFor, { name: visit.dependentName })}` : null}
                  </p>
                </div>
                <p className="text-sm font-medium text-primary-text tabular-nums">{formatMessage(p.savedOnVisit, { amount: formatMoney(visit.discountCents) })}</p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <CardFooter>
        <Button asChild variant="outline" size="sm">
          <Link to="/paciente/historico">
            <HistoryIcon aria-hidden="true" />
            {p.viewHistory}
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
