import { Check, LayoutDashboard, Smartphone, Stethoscope, UserRound, type LucideIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

type Portal = { icon: LucideIcon; title: string; description: string; items: readonly string[] };

/** The four portals of the product (§1). */
const PORTALS: readonly Portal[] = [
  {
    icon: LayoutDashboard,
    title: 'Back-office Central',
    description: 'Administração completa da sua operação em um só lugar.',
    items: ['Gestão de clínicas', 'Planos e assinaturas', 'Relatórios gerenciais', 'Faturamento'],
  },
  {
    icon: Stethoscope,
    title: 'Portal da Clínica',
    description: 'Tudo o que a recepção precisa para atender os portadores do cartão.',
    items: ['Validação de carteirinhas por QR Code', 'Registro de atendimentos', 'Relatórios da clínica'],
  },
  {
    icon: UserRound,
    title: 'Portal do Paciente',
    description: 'Autonomia para o paciente acompanhar e aproveitar o seu plano.',
    items: ['Carteirinha digital', 'Checkout integrado', 'Rede credenciada', 'Histórico de utilização'],
  },
  {
    icon: Smartphone,
    title: 'App Mobile',
    description: 'A carteirinha sempre à mão, direto no celular do paciente.',
    items: ['QR Code dinâmico', 'Geolocalização', 'Notificações push'],
  },
];

/** Section #features: one card per portal. */
export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-32 py-20 md:scroll-mt-20 md:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-title"
          eyebrow="Recursos"
          title="Quatro portais, uma plataforma completa"
          description="Administração, clínicas e pacientes conectados, cada um com a experiência certa para o seu papel."
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
