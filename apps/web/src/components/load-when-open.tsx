import { Suspense, useState, type ReactNode } from 'react';

/**
 * Draws a lazily loaded overlay (see lib/lazy-component.ts) from the first time it opens, and keeps it mounted after,
 * so it animates closed and opens again at once. Until then its code is not loaded: a page's first load carries its
 * own content, not the forms of the dialogs it may open.
 */
export function LoadWhenOpen({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
