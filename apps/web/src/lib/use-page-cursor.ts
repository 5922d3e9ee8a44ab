import { useState } from 'react';

/** What a keyset list answered: the page it holds and the cursor of the page after it. */
type CursorAnswer = { page: number; nextCursor: string | null };

type Known = { listKey: string; cursors: ReadonlyMap<number, string> };

/**
 * The cursors of a list that grows (visits, users, clinics): `after(page)` is the `nextCursor` the page before it
 * answered, remembered for this `listKey` (the search and filters), so 'Próxima' and 'Anterior' read one index range
 * at any depth (keyset pagination); the first page, or a page reached by a jump, has none and is read by number.
 * `remember(answer, stale)` takes each answer in; a `stale` one (a placeholder from another page or search) is not
 * this list's and is ignored.
 *
 * The cursors are state adjusted while rendering, as `useClampedPage` does, not in an effect.
 */
export function usePageCursors(listKey: string) {
  const [known, setKnown] = useState<Known>({ listKey, cursors: new Map() });
  const cursors = known.listKey === listKey ? known.cursors : new Map<number, string>();
  if (known.listKey !== listKey) setKnown({ listKey, cursors });
  return {
    after: (page: number): string | undefined => cursors.get(page),
    remember(answer: CursorAnswer | undefined, stale: boolean): void {
      const next = answer?.nextCursor;
      if (stale || !answer || !next || cursors.get(answer.page + 1) === next) return;
      setKnown({ listKey, cursors: new Map(cursors).set(answer.page + 1, next) });
    },
  };
}
