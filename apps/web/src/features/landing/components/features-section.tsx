import { messages } from '@carteirinha/shared/messages';
import { Check, LayoutDashboard, Smartphone, Stethoscope, UserRound, type LucideIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

type Portal = { icon: LucideIcon; title: string; description: string; items: readonly string[] };

const m = messages.landing.features;

/** The four portals of the product (§1). */
const PORTALS: readonly Portal[] = [
  { icon: LayoutDashboard, ...m.backOffice },
  { icon: Stethoscope, ...m.clinicPortal },
  { icon: UserRound, ...m.patientPortal },
  { icon: Smartphone, ...m.mobileApp },
];

/** Section #features: one card per portal. */
export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-32 py-20 md:scroll-mt-20 md:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-title"
          eyebrow={m.eyebrow}
          title={m.title}
          description={m.description}
        />
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {PORTALS.map((portal) => (
            <li
              key={portal.title}
              className="flex flex-col rounded-xl border bg-card p-6 text-card-foreground shadow-xs transition-shadow hover:shadow-md"
            >
              <span className="flex size-11 items-center justify-center rounded-lg bg-accent text-primary">
                <portal.icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold">{portal.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{portal.description}</p>
              <ul className="mt-5 space-y-2.5 text-sm">
                {portal.items.map((item) => (
                  <li key={item} className="flex items-start gap-2">
                    <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    {item}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
