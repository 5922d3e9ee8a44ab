import { formatMessage, messages } from '@carteirinha/shared/messages';
import { HomeIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { LogoMark } from '@/components/ui/logo-mark';
import { useClinicTenant } from '@/features/tenancy/api/get-tenant';

const m = messages.notFound;

/**
 * Any path the router does not know (specification §2 "Not-found screen"); the missing path is logged. The '404' and
 * 'Oops! Page not found' are the specification's words; the rest is pt-BR. On a clinic's host the page wears the
 * clinic's name and logo (its colour comes from the root route's branding), so a visitor is never dropped out of it.
 */
export function NotFoundPage() {
  const location = useLocation();
  const clinic = useClinicTenant()?.clinic ?? null;

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);

  const brandName = clinic?.name ?? messages.landing.brandName;
  return (
    <div className="flex min-h-svh flex-col bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <Link
            to="/"
            className="inline-flex min-w-0 items-center gap-2 rounded-md text-base font-bold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-lg"
          >
            <LogoMark src={clinic?.logoUrl ?? null} alt="" />
            <span data-testid="not-found-brand" className="truncate">
              {brandName}
            </span>
          </Link>
        </div>
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-16">
        <div className="grid max-w-md justify-items-center gap-4 text-center">
          <h1 className="text-5xl font-extrabold tracking-tight text-primary-text">{m.code}</h1>
          {/* The specification's English line: said in English by a screen reader too. */}
          <p lang="en" className="text-xl font-semibold">
            {m.title}
          </p>
          <p className="text-pretty text-muted-foreground">{m.text}</p>
          <Button asChild size="lg" className="mt-2">
            <Link to="/">
              <HomeIcon aria-hidden="true" />
              {clinic ? formatMessage(m.backToClinic, { name: clinic.name }) : m.backHome}
            </Link>
          </Button>
        </div>
      </main>
    </div>
  );
}
