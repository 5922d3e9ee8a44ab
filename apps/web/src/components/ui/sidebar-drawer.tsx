import { SIDEBAR_WIDTH_MOBILE } from '@carteirinha/shared/constants';
import type { ReactNode } from 'react';
import { Sheet, SheetContent, SheetTitle } from '@/components/ui/sheet';
import { cn } from '@/lib/utils';

type SidebarDrawerProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Names the drawer for screen readers. */
  title: string;
  className?: string;
  children: ReactNode;
};

/** The sidebar on a phone: a drawer from the left (a Radix Dialog: it traps focus and closes on Esc). */
export function SidebarDrawer({ open, onOpenChange, title, className, children }: SidebarDrawerProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side="left"
        aria-describedby={undefined}
        // The drawer is portalled out of the provider's element, so it needs the width variable of its own.
        style={{ '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE }}
        className="w-(--sidebar-width-mobile) max-w-[85vw] gap-0 bg-sidebar p-0 text-sidebar-foreground sm:max-w-[85vw]"
      >
        <SheetTitle className="sr-only">{title}</SheetTitle>
        <div data-testid="sidebar" data-slot="sidebar" data-state="expanded" data-mobile="true" className={cn('group/sidebar flex h-full flex-col', className)}>
          {children}
        </div>
      </SheetContent>
    </Sheet>
  );
}
