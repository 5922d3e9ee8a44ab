import { useCallback, useEffect, useState } from 'react';

/**
 * The page's forms that hold changes not saved. A router has room for one navigation blocker, so the page keeps one
 * UnsavedChangesGuard for all its forms, and each form reports here whether it is dirty.
 */
export function useDirtyParts(): { anyDirty: boolean; reporter: (part: string) => (dirty: boolean) => void } {
  const [dirtyParts, setDirtyParts] = useState<ReadonlySet<string>>(new Set());
  const reporter = useCallback(
    (part: string) => (dirty: boolean) =>
      setDirtyParts((current) => {
        if (current.has(part) === dirty) return current;
        const next = new Set(current);
        if (dirty) next.add(part);
        else next.delete(part);
        return next;
      }),
    [],
  );
  return { anyDirty: dirtyParts.size > 0, reporter };
}

/** Tells the page whether this form has unsaved changes, and that it has none once it goes away. */
export function useReportDirty(dirty: boolean, report: (dirty: boolean) => void): void {
  useEffect(() => {
    report(dirty);
  }, [dirty, report]);
  useEffect(() => () => report(false), [report]);
}
