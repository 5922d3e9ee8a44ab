import { CreditCard, Lock, MapPinned, QrCode, type LucideIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

type Benefit = { icon: LucideIcon; title: string; description: string };

/** §1 marketing claims. */
const BENEFITS: readonly Benefit[] = [
  {
    icon: QrCode,
    title: 'QR Code único e seguro',
    description:
      'Cada paciente recebe um QR Code exclusivo, validado pela clínica em segundos e protegido contra cópias e fraudes.',
  },
  {
    icon: Lock,
    title: 'Isolamento total de dados',
    description:
      'Os dados de cada clínica ficam completamente separados: nenhuma clínica enxerga pacientes ou informações de outra.',
  },
  {
    icon: CreditCard,
    title: 'Pagamentos com Pix e cartão',
    description:
      'Cobranças por Pix e cartão com webhooks automáticos, confirmação imediata e gestão de inadimplência integrada.',
  },
  {
    icon: MapPinned,
    title: 'Mapa interativo da rede',
    description:
      'O paciente encontra as clínicas e os laboratórios credenciados mais próximos em um mapa interativo.',
  },
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
          eyebrow="Benefícios"
          title="Segurança e praticidade para clínicas e pacientes"
          description="Tecnologia pronta para você focar no que importa: cuidar das pessoas e fazer o seu programa crescer."
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
