import { messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Separator } from '@/components/ui/separator';
import { SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { useClinicTenant } from '@/features/tenancy/api/get-tenant';
import { PortalSidebar, type PortalSidebarProps } from './portal-sidebar';
import { useMe } from './session';

type PortalTopBarProps = {
  /** The clinic and patient portals name the user's clinic; the platform admin has none. */
  showClinic: boolean;
};

function PortalTopBar({ showClinic, brand }: PortalTopBarProps & { brand: string }) {
  const { data: me } = useMe();
  const tenant = useClinicTenant();
  // On the clinic's own host its display name (branding) is the one to show.
  const clinicName = showClinic ? (tenant?.clinic.name ?? me?.clinic?.name) : undefined;

  return (
    <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background px-3 md:px-4">
      <SidebarTrigger />
      {/* On a phone the sidebar is a closed drawer: the bar says which portal this is. */}
      {clinicName ? null : (
        <p aria-hidden="true" className="truncate text-sm font-semibold md:hidden">
          {brand}
        </p>
      )}
      {clinicName ? (
        <>
          <Separator orientation="vertical" className="mx-1 data-[orientation=vertical]:h-5" />
          <p data-testid="current-clinic" className="truncate text-sm font-medium">
            {clinicName}
          </p>
        </>
      ) : null}
      {me ? (
        <div data-testid="current-user" className="ml-auto flex min-w-0 items-center gap-3">
          {me.role ? (
            <Badge variant="secondary" className="hidden sm:inline-flex">
              {ROLE_LABELS[me.role]}
            </Badge>
          ) : null}
          <div className="flex min-w-0 flex-col text-right leading-tight">
            <span className="truncate text-sm font-medium">{me.user.fullName || me.user.email}</span>
            {me.user.fullName ? <span className="hidden truncate text-xs text-muted-foreground sm:block">{me.user.email}</span> : null}
          </div>
        </div>
      ) : null}
    </header>
  );
}

type PortalShellProps = Omit<PortalSidebarProps, 'logoUrl'> &
  PortalTopBarProps & {
    /** A notice above every page of the portal, such as the clinic's trial banner. */
    notice?: ReactNode;
  };

/** The id of every portal page's `<main>`, where 'Pular para o conteúdo' leads. */
const MAIN_CONTENT_ID = 'conteudo';

/**
 * 'Pular para o conteúdo': the first thing Tab reaches on a portal page, shown only then, it takes keyboard and
 * screen-reader users past the sidebar and the top bar. Focus is moved by hand: a `#conteudo` in the address would be
 * a navigation of its own for the router.
 */
function SkipToContentLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="sr-only z-50 rounded-md bg-background text-sm font-medium shadow-md ring-2 ring-ring focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:px-4 focus:py-2"
      onClick={(event) => {
        event.preventDefault();
        const main = document.getElementById(MAIN_CONTENT_ID);
        main?.focus();
        main?.scrollIntoView({ block: 'start' });
      }}
    >
      {messages.common.skipToContent}
    </a>
  );
}

/** The frame of every portal: the skip link, the sidebar, the top bar and the page in `<main>`. */
export function PortalShell({ brand, groupLabel, items, showClinic, notice }: PortalShellProps) {
  const tenant = useClinicTenant();
  return (
    <SidebarProvider>
      <SkipToContentLink />
      <PortalSidebar brand={brand} groupLabel={groupLabel} items={items} logoUrl={tenant?.clinic.logoUrl ?? null} />
      <div className="flex min-w-0 flex-1 flex-col">
        <PortalTopBar showClinic={showClinic} brand={brand} />
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 p-4 outline-none md:p-6 lg:p-8">
          <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
            {notice}
            <Outlet />
          </div>
        </main>
      </div>
    </SidebarProvider>
  );
}
