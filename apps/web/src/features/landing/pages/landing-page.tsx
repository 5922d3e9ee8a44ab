import { BenefitsSection } from '../components/benefits-section';
import { CtaSection } from '../components/cta-section';
import { FeaturesSection } from '../components/features-section';
import { HeroSection } from '../components/hero-section';
import { LandingFooter } from '../components/landing-footer';
import { LandingHeader } from '../components/landing-header';
import { PricingSection } from '../components/pricing-section';
import { StatsSection } from '../components/stats-section';

type LandingPageProps = {
  /** Where 'Ver Demonstração' leads: the demo clinic's site (GET /api/tenant), or null when there is none. */
  demoUrl: string | null;
};

/** The platform's public page at "/" on its main host (specification §2, "Landing page"). */
export function LandingPage({ demoUrl }: LandingPageProps) {
  return (
    <div className="flex min-h-svh flex-col">
      <LandingHeader />
      <main className="flex-1">
        <HeroSection demoUrl={demoUrl} />
        <StatsSection />
        <FeaturesSection />
        <BenefitsSection />
        <PricingSection />
        <CtaSection />
      </main>
      <LandingFooter />
    </div>
  );
}
