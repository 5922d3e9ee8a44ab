import { messages } from '@carteirinha/shared/messages';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

const m = messages.landing;

/** Closing call-to-action band. */
export function CtaSection() {
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6 md:pb-28">
      <div className="mx-auto max-w-6xl rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl sm:px-12 md:py-20">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          {m.cta.title}
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty">
          {m.cta.description}
        </p>
        <Button asChild size="lg" variant="secondary" className="mt-8">
          <Link to="/auth?tab=cadastrar">
            {m.startNow}
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
