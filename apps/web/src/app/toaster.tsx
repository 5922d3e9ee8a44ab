import { useEffect } from 'react';
import { Toaster, toast } from 'sonner';
import { toasterReady } from '@/lib/toasts';
import { useIsMobile } from '@/lib/use-is-mobile';
import { useModalLayerOpen } from '@/lib/overlay-focus';

/** The height of the sticky bars at a page's foot (Configurações' save bar, 1rem from the bottom): toasts sit above. */
const ABOVE_STICKY_BARS = 88;

/**
 * Where toasts go so that they cover no control: not over the top bar, the page title or 'Sair'. On a desktop,
 * bottom-right, narrow enough to clear a centred dialog and lifted above sticky save bars; on a phone, across the
 * foot of the screen above the safe area — or, while a dialog or the drawer is open, whose buttons are at the foot, at
 * the top, over the dialog's title.
 */
export function AppToaster() {
  const isMobile = useIsMobile();
  const layerOpen = useModalLayerOpen();
  const onTop = isMobile && layerOpen;
  // After the Toaster's own effect (a child's runs first), which subscribes it: from here on toasts reach the screen.
  useEffect(() => toasterReady(toast), []);
  return (
    <Toaster
      richColors
      closeButton
      position={onTop ? 'top-center' : 'bottom-right'}
      offset={{ bottom: ABOVE_STICKY_BARS, right: 24 }}
      mobileOffset={onTop ? { top: 8, left: 8, right: 8 } : { bottom: `calc(${ABOVE_STICKY_BARS}px + env(safe-area-inset-bottom))`, left: 8, right: 8 }}
      style={{ '--width': '320px' }}
    />
  );
}
