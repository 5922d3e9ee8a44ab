import type { ClinicContact, OpeningHours } from '@carteirinha/shared/contracts/clinics';
import { formatPhone } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from 'lucide-react';

const p = messages.priceTable;

const DAYS: readonly [keyof OpeningHours, string][] = [
  ['weekdays', p.weekdays],
  ['saturday', p.saturday],
];

/** 'Segunda a sexta: 08:00 às 18:00', 'Sábado: Fechado'. */
function hoursLine(period: OpeningHours[keyof OpeningHours]): string {
  return period ? formatMessage(p.hoursRange, { open: period.open, close: period.close }) : p.closed;
}

/**
 * The clinic's opening hours and how to reach it, on its site (Configurações). Plain HTML: the landing is drawn by
 * the server without scripts (ADR 019), so the phone and e-mail are ordinary links.
 */
export function ClinicContactSection({ contact }: { contact: ClinicContact }) {
  const { openingHours, phone, contactEmail, address } = contact;
  if (!openingHours && !phone && !contactEmail && !address) return null;
  return (
    <section aria-labelledby="clinic-contact-title" data-testid="clinic-contact" className="border-t py-16">
      <div className="mx-auto grid max-w-4xl gap-8 px-4 sm:grid-cols-2 sm:px-6">
        {openingHours ? (
          <div>
            <h2 id="clinic-contact-title" className="flex items-center gap-2 text-xl font-semibold">
              <ClockIcon aria-hidden="true" className="size-5 text-primary-text" />
              {p.openingHours}
            </h2>
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              {DAYS.map(([day, label]) => (
                <div key={day} className="col-span-2 grid grid-cols-subgrid">
                  <dt className="font-medium">{label}</dt>
                  <dd className="text-muted-foreground tabular-nums">{hoursLine(openingHours[day])}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        <div>
          <h2 id={openingHours ? undefined : 'clinic-contact-title'} className="text-xl font-semibold">
            {p.contact}
          </h2>
          <ul className="mt-4 grid gap-2 text-sm">
            {phone ? (
              <li className="flex items-center gap-2">
                <PhoneIcon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                <a href={`tel:+55${phone}`} className="underline-offset-4 hover:underline">
                  {formatPhone(phone)}
                </a>
              </li>
            ) : null}
            {contactEmail ? (
              <li className="flex items-center gap-2">
                <MailIcon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                <a href={`mailto:${contactEmail}`} className="break-all underline-offset-4 hover:underline">
                  {contactEmail}
                </a>
              </li>
            ) : null}
            {address ? (
              <li className="flex items-start gap-2">
                <MapPinIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                <span>{address}</span>
              </li>
            ) : null}
          </ul>
        </div>
      </div>
    </section>
  );
}
