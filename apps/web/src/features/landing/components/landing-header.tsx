import { messages } from '@carteirinha/shared/messages';
import { Link } from 'react-router';
import { usePortalEntry } from '@/app/portal-entry';
import { Button } from '@/components/ui/button';
import { BrandLogo } from './brand-logo';

const m = messages.landing;

const SECTION_LINKS = [
  { href: '#features', label: m.nav.features },
  { href: '#benefits', label: m.nav.benefits },
  { href: '#pricing', label: m.nav.pricing },
] as const;

/**
 * Sticky top bar. On small screens the section anchors drop to a second row under the logo and the two buttons,
 * so everything stays reachable without a menu toggle.
 */
export function LandingHeader() {
  const entry = usePortalEntry(m.signIn);
  return (
    <header className="sticky top-0 z-50 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-2 gap-y-2 px-3 py-3 sm:gap-x-6 sm:px-6 md:h-16 md:flex-nowrap md:py-0">
        <BrandLogo className="order-1" />
        <nav aria-label={m.nav.label} className="order-3 w-full md:order-2 md:w-auto">
          <ul className="flex items-center justify-center gap-1 md:gap-2">
            {SECTION_LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="inline-flex rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="order-2 ml-auto flex items-center gap-1 sm:gap-2 md:order-3 md:ml-0">
          {/* A signed-in visitor has an account already: the way to it replaces both 'Entrar' and the sign-up. */}
          <Button asChild variant={entry.signedIn ? 'default' : 'ghost'} size="sm" className="px-2.5 sm:px-3">
            <Link to={entry.to}>{entry.label}</Link>
          </Button>
          {entry.signedIn ? null : (
            <Button asChild size="sm" className="px-2.5 sm:px-3">
              <Link to="/auth?tab=cadastrar">{m.startNow}</Link>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
