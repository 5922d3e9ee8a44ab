import { messages } from '@carteirinha/shared/messages';
import { CreditCard, Lock, MapPinned, QrCode, type LucideIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

type Benefit = { icon: LucideIcon; title: string; description: string };

const m = messages.landing.benefits;

/** §1 marketing claims. */
const BENEFITS: readonly Benefit[] = [
  { icon: QrCode, ...m.qrCode },
  { icon: Lock, ...m.dataIsolation },
  { icon: CreditCard, ...m.payments },
  { icon: MapPinned, ...m.networkMap },
];

/** Section #benefits: why a clinic should choose the platform. */
export function BenefitsSection() {
  return (
    <section
      id="benefits"
      aria-labelledby="benefits-title"
      className="scroll-mt-32 border-y bg-muted py-20 md:scroll-mt-20 md:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="benefits-title"
          eyebrow={m.eyebrow}
          title={m.title}
          description={m.description}
        />
        <ul className="mt-14 grid gap-6 sm:grid-cols-2">
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className="flex gap-5 rounded-xl border bg-card p-6 text-card-foreground shadow-xs">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                <benefit.icon className="size-6" aria-hidden="true" />
              </span>
              <div>
                <h3 className="text-lg font-semibold">{benefit.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{benefit.description}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
