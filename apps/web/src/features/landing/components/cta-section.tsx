import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** Closing call-to-action band. */
export function CtaSection() {
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6 md:pb-28">
      <div className="mx-auto max-w-6xl rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl sm:px-12 md:py-20">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          Pronto para transformar sua clínica?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty">
          Lance hoje o seu programa de cartão de benefícios e ofereça aos seus pacientes mais economia, praticidade e
          motivos para voltar.
        </p>
        <Button asChild size="lg" variant="secondary" className="mt-8">
          <Link to="/auth?tab=cadastrar">
            Começar Agora
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
