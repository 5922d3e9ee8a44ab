import { SIDEBAR_COOKIE_MAX_AGE_SECONDS, SIDEBAR_COOKIE_NAME, SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { PanelLeftIcon } from 'lucide-react';
import { Slot } from 'radix-ui';
import {
  createContext,
  Suspense,
  use,
  useCallback,
  useEffect,
  useEffectEvent,
  useMemo,
  useState,
  type ComponentProps,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Button } from '@/components/ui/button';
import { lazyComponent } from '@/lib/lazy-component';
import { useIsMobile } from '@/lib/use-is-mobile';
import { cn } from '@/lib/utils';

// Drawn only in the state that needs them, so a portal's first load carries neither Radix's dialog nor its tooltip
// (with its positioning engine): the drawer on a phone once the menu is opened, the tooltips in icon mode.
const SidebarDrawer = lazyComponent(() => import('./sidebar-drawer'), (m) => m.SidebarDrawer);
const SidebarTooltip = lazyComponent(() => import('./sidebar-tooltip'), (m) => m.SidebarTooltip);

const SIDEBAR_SHORTCUT_KEY = 'b';

type SidebarState = 'expanded' | 'collapsed';

type SidebarContextValue = {
  /** Desktop: expanded (16rem) or icon mode (3rem). */
  state: SidebarState;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Mobile: whether the drawer is showing. */
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  toggleSidebar: () => void;
};

const SidebarContext = createContext<SidebarContextValue | null>(null);

export function useSidebar(): SidebarContextValue {
  const context = use(SidebarContext);
  if (!context) throw new Error('useSidebar must be used inside <SidebarProvider>');
  return context;
}

/** The desktop open state saved by an earlier visit, or null when there is none. */
function readSidebarCookie(): boolean | null {
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${SIDEBAR_COOKIE_NAME}=`));
  if (!entry) return null;
  return entry.slice(SIDEBAR_COOKIE_NAME.length + 1) === 'true';
}

function writeSidebarCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE_NAME}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`;
}

type SidebarProviderProps = ComponentProps<'div'> & { defaultOpen?: boolean };

/**
 * Holds the sidebar's state for a portal: open/collapsed on desktop (kept in a cookie for 7 days, specification §9),
 * the drawer on mobile, and the Ctrl/⌘+B shortcut.
 */
export function SidebarProvider({ defaultOpen = true, className, style, children, ...props }: SidebarProviderProps) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => readSidebarCookie() ?? defaultOpen);
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    writeSidebarCookie(value);
  }, []);

  const toggleSidebar = useCallback(() => {
    if (isMobile) setOpenMobile((current) => !current);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.key.toLowerCase() !== SIDEBAR_SHORTCUT_KEY || !(event.ctrlKey || event.metaKey)) return;
    event.preventDefault();
    toggleSidebar();
  });

  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const value = useMemo<SidebarContextValue>(
    () => ({ state: open ? 'expanded' : 'collapsed', open, setOpen, openMobile, setOpenMobile, isMobile, toggleSidebar }),
    [open, setOpen, openMobile, isMobile, toggleSidebar],
  );

  return (
    <SidebarContext value={value}>
      <div
        data-slot="sidebar-wrapper"
        style={{
          '--sidebar-width': SIDEBAR_WIDTH,
          '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
          ...style,
        }}
        className={cn('flex min-h-svh w-full', className)}
        {...props}
      >
        {children}
      </div>
    </SidebarContext>
  );
}

type SidebarProps = {
  /** Names the mobile drawer for screen readers. */
  mobileTitle: string;
  children: ReactNode;
  className?: string;
};

/**
 * The sidebar column on desktop, a drawer from the left on mobile. The element carries `data-testid="sidebar"` and
 * `data-state="expanded" | "collapsed"`.
 */
export function Sidebar({ mobileTitle, children, className }: SidebarProps) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar();
  // Once opened, the drawer stays mounted, so that it can animate closed and open again at once.
  const [drawerUsed, setDrawerUsed] = useState(false);
  if (isMobile && openMobile && !drawerUsed) setDrawerUsed(true);

  if (isMobile) {
    if (!drawerUsed) return null;
    return (
      <Suspense fallback={null}>
        <SidebarDrawer open={openMobile} onOpenChange={setOpenMobile} title={mobileTitle} className={className}>
          {children}
        </SidebarDrawer>
      </Suspense>
    );
  }

  return (
    <div
      data-testid="sidebar"
      data-slot="sidebar"
      data-state={state}
      className={cn(
        'group/sidebar sticky top-0 flex h-svh w-(--sidebar-width) shrink-0 flex-col overflow-x-hidden border-r border-sidebar-border bg-sidebar text-sidebar-foreground transition-[width] duration-200 ease-linear',
        'data-[state=collapsed]:w-(--sidebar-width-icon)',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** The button in the top bar that opens/collapses the sidebar (or the drawer on mobile). */
export function SidebarTrigger({ className, onClick, ...props }: ComponentProps<typeof Button>) {
  const { toggleSidebar, isMobile, open, openMobile } = useSidebar();
  return (
    <Button
      data-testid="sidebar-trigger"
      data-slot="sidebar-trigger"
      variant="ghost"
      size="icon"
      aria-label={messages.sidebar.toggle}
      aria-expanded={isMobile ? openMobile : open}
      className={cn('size-8', className)}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        toggleSidebar();
      }}
      {...props}
    >
      <PanelLeftIcon aria-hidden="true" />
    </Button>
  );
}

export function SidebarHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sidebar-header" className={cn('flex flex-col gap-2 p-2', className)} {...props} />;
}

export function SidebarContent({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-content"
      className={cn('flex min-h-0 flex-1 flex-col gap-2 overflow-auto group-data-[state=collapsed]/sidebar:overflow-hidden', className)}
      {...props}
    />
  );
}

export function SidebarFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sidebar-footer" className={cn('flex flex-col gap-2 border-t border-sidebar-border p-2', className)} {...props} />;
}

export function SidebarGroup({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sidebar-group" className={cn('relative flex w-full min-w-0 flex-col p-2', className)} {...props} />;
}

/** A group's caption; hidden in icon mode, where there is no room for it. */
export function SidebarGroupLabel({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-group-label"
      className={cn(
        'flex h-8 shrink-0 items-center rounded-md px-2 text-xs font-medium text-sidebar-foreground/80',
        'group-data-[state=collapsed]/sidebar:sr-only',
        className,
      )}
      {...props}
    />
  );
}

export function SidebarMenu({ className, ...props }: ComponentProps<'ul'>) {
  return <ul data-slot="sidebar-menu" className={cn('flex w-full min-w-0 flex-col gap-1', className)} {...props} />;
}

export function SidebarMenuItem({ className, ...props }: ComponentProps<'li'>) {
  return <li data-slot="sidebar-menu-item" className={cn('relative', className)} {...props} />;
}

/** Text beside an icon that is only visually hidden in icon mode, so links and buttons keep their accessible name. */
export function SidebarLabel({ className, ...props }: ComponentProps<'span'>) {
  return <span data-slot="sidebar-label" className={cn('truncate group-data-[state=collapsed]/sidebar:sr-only', className)} {...props} />;
}

type SidebarMenuButtonProps = ComponentProps<'button'> & {
  asChild?: boolean;
  /** Shown beside the button in icon mode, where the label is hidden. */
  tooltip: string;
};

/**
 * A sidebar entry. Active links are styled by `aria-current="page"`, which React Router's NavLink sets. The tooltip
 * is only there in icon mode: in expanded mode the visible label already says it all.
 */
export function SidebarMenuButton({ asChild = false, tooltip, className, ...props }: SidebarMenuButtonProps) {
  const { state, isMobile } = useSidebar();
  const Component = asChild ? Slot.Root : 'button';
  const collapsed = state === 'collapsed' && !isMobile;
  const button = (
    <Component
      data-slot="sidebar-menu-button"
      className={cn(
        'flex h-9 w-full items-center gap-2 overflow-hidden rounded-md px-2 text-left text-sm outline-none',
        'transition-[width,height,padding] hover:bg-sidebar-accent hover:text-sidebar-accent-foreground',
        'focus-visible:ring-2 focus-visible:ring-sidebar-ring disabled:pointer-events-none disabled:opacity-50',
        'aria-[current=page]:bg-sidebar-accent aria-[current=page]:font-medium aria-[current=page]:text-sidebar-accent-foreground',
        'group-data-[state=collapsed]/sidebar:size-8 group-data-[state=collapsed]/sidebar:p-2',
        '[&>svg]:size-4 [&>svg]:shrink-0',
        className,
      )}
      {...props}
    />
  );
  if (!collapsed) return button;
  return (
    <Suspense fallback={button}>
      <SidebarTooltip label={tooltip}>{button}</SidebarTooltip>
    </Suspense>
  );
}
