import { messages } from '@carteirinha/shared/messages';
import { LogOutIcon, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { LogoMark } from '@/components/ui/logo-mark';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { useSignOut } from './use-sign-out';

export type PortalNavItem = {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Match the path exactly: the portal's home would otherwise be active on every page. */
  end?: boolean;
};

export type PortalSidebarProps = {
  brand: string;
  groupLabel?: string;
  items: readonly PortalNavItem[];
  /** On a clinic's host, the clinic's logo in place of the product's mark. */
  logoUrl?: string | null;
};

function PortalBrand({ brand, logoUrl }: { brand: string; logoUrl: string | null }) {
  return (
    <div className="flex h-10 items-center gap-2 overflow-hidden">
      <LogoMark src={logoUrl} alt="" tone="sidebar" />
      <SidebarLabel className="text-base font-semibold">{brand}</SidebarLabel>
    </div>
  );
}

function SignOutButton() {
  const signOut = useSignOut();
  return (
    <SidebarMenuButton tooltip={messages.sidebar.signOut} disabled={signOut.isPending} onClick={() => signOut.mutate()}>
      <LogOutIcon aria-hidden="true" />
      <SidebarLabel>{messages.sidebar.signOut}</SidebarLabel>
    </SidebarMenuButton>
  );
}

/** The one sidebar of the three portals: brand, navigation entries and "Sair". */
export function PortalSidebar({ brand, groupLabel, items, logoUrl = null }: PortalSidebarProps) {
  const { isMobile, setOpenMobile } = useSidebar();
  // On mobile the drawer covers the page, so following a link should also close it.
  const closeDrawer = () => {
    if (isMobile) setOpenMobile(false);
  };

  return (
    <Sidebar mobileTitle={brand}>
      <nav aria-label={messages.sidebar.navigation} className="flex h-full min-h-0 flex-col">
        {/* On mobile the drawer's close button sits in the top-right corner of the header. */}
        <SidebarHeader className="group-data-[mobile=true]/sidebar:pr-10">
          <PortalBrand brand={brand} logoUrl={logoUrl} />
        </SidebarHeader>
        <SidebarContent>
          <SidebarGroup>
            {groupLabel ? <SidebarGroupLabel>{groupLabel}</SidebarGroupLabel> : null}
            <SidebarMenu>
              {items.map((item) => (
                <SidebarMenuItem key={item.to}>
                  <SidebarMenuButton asChild tooltip={item.label}>
                    <NavLink to={item.to} end={item.end} onClick={closeDrawer}>
                      <item.icon aria-hidden="true" />
                      <SidebarLabel>{item.label}</SidebarLabel>
                    </NavLink>
                  </SidebarMenuButton>
                </SidebarMenuItem>
              ))}
            </SidebarMenu>
          </SidebarGroup>
        </SidebarContent>
        <SidebarFooter>
          <SignOutButton />
        </SidebarFooter>
      </nav>
    </Sidebar>
  );
}
