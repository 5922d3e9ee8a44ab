import { Suspense, useState, type ReactNode } from 'react';
import { Button } from './button';

/**
 * A row's menu whose code (Radix's menu, its positioning and focus handling: ~25 KiB gzipped) loads the first time it
 * is opened: until then a button that looks and reads the same ('menu' popup, closed). A click on it loads the menu,
 * which is drawn open (its `children` are given `defaultOpen`), so one click opens it as before.
 */
export function OnDemandMenu({ label, icon, className, children }: { label: string; icon: ReactNode; className?: string; children: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  const placeholder = (
    <Button variant="ghost" size="icon" className={className} aria-label={label} aria-haspopup="menu" aria-expanded={false} onClick={() => setWanted(true)}>
      {icon}
    </Button>
  );
  if (!wanted) return placeholder;
  return <Suspense fallback={placeholder}>{children}</Suspense>;
}
