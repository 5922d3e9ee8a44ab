import type { ReactNode } from 'react';

/** Why something could not be shown or done, announced at once to screen readers. */
export function ErrorText({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="text-sm text-destructive">
      {children}
    </p>
  );
}
