import { useEffect } from 'react';

/**
 * Sets the page's tab title while mounted, and puts the previous one back afterwards. An effect rather than React
 * 19's `<title>` hoisting, which Preact (the browser's React, ADR 021) does not do.
 */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (title === null) return;
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
