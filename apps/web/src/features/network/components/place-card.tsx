import { NETWORK_CATEGORY_LABELS, type PatientNetworkPlace } from '@carteirinha/shared/contracts/network';
import { formatIsoDay, formatPhone } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ClockIcon, ExternalLinkIcon, MapPinIcon, NavigationIcon, PhoneIcon, TagIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { directionsUrl, formatKm } from '../lib/geo';

const m = messages.network;

function Detail({ icon: Icon, label, children }: { icon: typeof MapPinIcon; label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-2">
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <dt className="sr-only">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** One place of the patient's network: every detail, its distance once located, directions and the price table. */
export function PlaceCard({ place, priceTableUrl }: { place: PatientNetworkPlace; priceTableUrl: string }) {
  return (
    <li className="grid gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm" aria-label={place.name}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <h2 className="text-base font-semibold">{place.name}</h2>
          <Badge variant="secondary" className="w-fit">
            {NETWORK_CATEGORY_LABELS[place.category]}
          </Badge>
        </div>
        {place.distanceKm !== null ? (
          <p data-testid="place-distance" className="text-sm font-semibold text-primary-text tabular-nums">
            {formatMessage(m.distance, { km: formatKm(place.distanceKm) })}
          </p>
        ) : null}
      </div>
      <dl className="grid gap-2 text-sm">
        <Detail icon={MapPinIcon} label={m.columns.address}>
          {place.address}
        </Detail>
        {place.phone ? (
          <Detail icon={PhoneIcon} label={m.phone}>
            <a className="underline-offset-4 hover:underline" href={`tel:+55${place.phone}`}>
              {formatPhone(place.phone)}
            </a>
          </Detail>
        ) : null}
        {place.hours ? (
          <Detail icon={ClockIcon} label={m.hours}>
            {place.hours}
          </Detail>
        ) : null}
        {place.services.length > 0 ? (
          <Detail icon={TagIcon} label={m.services}>
            {place.services.join(' · ')}
          </Detail>
        ) : null}
      </dl>
      <p className="text-xs text-muted-foreground">{formatMessage(m.lastConfirmed, { date: formatIsoDay(place.lastConfirmedOn) })}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <a href={directionsUrl(place)} target="_blank" rel="noopener noreferrer" aria-label={`${m.directions}: ${place.name}`}>
            <NavigationIcon aria-hidden="true" />
            {m.directions}
          </a>
        </Button>
        <Button asChild size="sm" variant="outline">
          <a href={priceTableUrl} target="_blank" rel="noopener noreferrer" aria-label={`${m.priceTable}: ${place.name}`}>
            <ExternalLinkIcon aria-hidden="true" />
            {m.priceTable}
          </a>
        </Button>
      </div>
    </li>
  );
}
