import { messages } from '@carteirinha/shared/messages';
import { ClockIcon, LogInIcon } from 'lucide-react';
import { Link } from 'react-router';
import { usePortalEntry } from '@/app/portal-entry';
import { Button } from '@/components/ui/button';
import { LogoMark } from '@/components/ui/logo-mark';
import type { ClinicTenant } from '../api/get-tenant';

/**
 * "/" on the host of a self-service sign-up that 'Aprovar Cadastro' has not accepted yet (issue 12, item 21): the
 * clinic's name, logo and colour, and a clear "Aguardando aprovação" instead of its plans. Visitors cannot sign up
 * here yet (the server refuses it too); the clinic's team signs in to prepare the clinic.
 */
export function ClinicAwaitingApprovalPage({ tenant }: { tenant: ClinicTenant }) {
  const { clinic } = tenant;
  const entry = usePortalEntry(messages.landing.signIn);
  return (
    <div className="flex min-h-svh flex-col">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
          <LogoMark src={clinic.logoUrl} alt="" />
          <span data-testid="clinic-name" className="truncate text-base font-bold tracking-tight sm:text-lg">
            {clinic.name}
          </span>
        </div>
      </header>
      <main className="flex flex-1 items-center justify-center bg-accent px-4 py-16 sm:px-6">
        <section aria-labelledby="awaiting-approval-title" className="flex max-w-2xl flex-col items-center text-center">
          <LogoMark src={clinic.logoUrl} alt="" className="size-16 rounded-2xl shadow-sm" />
          <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{clinic.name}</h1>
          <h2
            id="awaiting-approval-title"
            className="mt-6 inline-flex items-center gap-2 rounded-full border bg-background px-4 py-1.5 text-base font-semibold"
          >
            <ClockIcon aria-hidden="true" className="size-4" />
            {messages.tenancy.awaitingApprovalTitle}
          </h2>
          <p className="mt-6 text-lg text-pretty text-muted-foreground">{messages.tenancy.awaitingApproval}</p>
          <p className="mt-10 text-sm text-muted-foreground">{messages.tenancy.awaitingApprovalTeam}</p>
          <Button asChild size="lg" className="mt-3">
            <Link to={entry.to}>
              <LogInIcon aria-hidden="true" />
              {entry.label}
            </Link>
          </Button>
        </section>
      </main>
      <footer className="border-t bg-muted">
        <div className="mx-auto flex max-w-6xl flex-col items-center gap-2 px-4 py-8 text-center text-sm text-muted-foreground sm:px-6 md:flex-row md:justify-between md:text-left">
          <p className="font-medium text-foreground">{clinic.name}</p>
          <p>{messages.tenancy.poweredBy}</p>
        </div>
      </footer>
    </div>
  );
}
