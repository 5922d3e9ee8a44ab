import { messages } from '@carteirinha/shared/messages';
import { ArrowRight, BadgeCheck, HeartPulse, QrCode, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

const m = messages.landing;

type HeroSectionProps = {
  /** Clínica Demo's own site, where 'Ver Demonstração' leads; null hides the button (no demo clinic here). */
  demoUrl: string | null;
};

/** Opening section: the promise, the two main actions and a drawn sample card (no fetched images). */
export function HeroSection({ demoUrl }: HeroSectionProps) {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,var(--accent),transparent_65%)]"
      />
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-sm font-medium text-foreground shadow-xs">
            <Sparkles className="size-4 text-primary" aria-hidden="true" />
            {m.hero.eyebrow}
          </p>
          <h1 id="hero-title" className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl xl:text-6xl">
            {m.hero.titleStart}
            <span className="text-primary-text">{m.hero.titleHighlight}</span>
            {m.hero.titleEnd}
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-pretty text-muted-foreground lg:mx-0">
            {m.hero.description}
          </p>
          <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center lg:justify-start">
            <Button asChild size="lg">
              <Link to="/auth?tab=cadastrar">
                {m.hero.createPlatform}
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            {demoUrl ? (
              <Button asChild size="lg" variant="outline">
                <a href={demoUrl}>{m.hero.seeDemo}</a>
              </Button>
            ) : null}
          </div>
        </div>
        <SampleCard />
      </div>
    </section>
  );
}

/** A decorative digital health card, drawn with CSS. */
function SampleCard() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md pb-10">
      <div className="absolute -inset-4 -z-10 rounded-3xl bg-primary/10 blur-2xl" />
      <div className="rotate-[-2deg] rounded-2xl bg-primary p-6 pb-10 text-primary-foreground shadow-2xl transition-transform hover:rotate-0">
        <div className="flex items-center justify-between">
          <div className="flex items-center gap-2 font-semibold">
            <HeartPulse className="size-6" />
            {m.hero.sampleClinic}
          </div>
          <span className="rounded-full bg-primary-foreground px-2.5 py-0.5 text-xs font-semibold text-primary">
            {m.hero.sampleStatus}
          </span>
        </div>
        <div className="mt-8 flex items-end justify-between gap-4">
          <div>
            <p className="text-xs tracking-wider uppercase">{m.hero.sampleHolderLabel}</p>
            <p className="mt-1 text-lg font-semibold">{m.hero.sampleHolder}</p>
            <p className="mt-4 text-xs tracking-wider uppercase">{m.hero.samplePlanLabel}</p>
            <p className="mt-1 font-medium">{m.hero.samplePlan}</p>
          </div>
          <div className="rounded-xl bg-primary-foreground p-2 text-foreground">
            <QrCode className="size-20" strokeWidth={1.5} />
          </div>
        </div>
      </div>
      <div className="absolute bottom-0 left-2 flex items-center gap-3 rounded-xl border bg-card p-3 text-card-foreground shadow-lg sm:-left-6">
        <span className="flex size-9 items-center justify-center rounded-full bg-accent text-primary">
          <BadgeCheck className="size-5" />
        </span>
        <div className="text-sm">
          <p className="font-semibold">{m.hero.sampleValidated}</p>
          <p className="text-muted-foreground">{m.hero.sampleDiscount}</p>
        </div>
      </div>
    </div>
  );
}
