/** What a server-paged list answered: the page it holds, its size, the total and the rows. */
type PageAnswer = { page: number; pageSize: number; total: number; items: readonly unknown[] };

/** The last page of a list of `total` rows, `pageSize` to a page; 1 for an empty list. */
export function lastPageOf({ total, pageSize }: { total: number; pageSize: number }): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The page to move to when `answer`, the answer to `page`, came back empty past the end of the list; null to stay.
 * A placeholder answer (the previous page, kept while the next loads) holds another page number and is ignored, and
 * the move is only ever backwards: an answer whose rows and count disagree (a row deleted between the two) must not
 * send the list back and forth.
 */
export function pageToClampTo(page: number, answer: PageAnswer | undefined): number | null {
  if (!answer || answer.page !== page || answer.items.length > 0) return null;
  const lastPage = lastPageOf(answer);
  return lastPage < page ? lastPage : null;
}

/**
 * Keeps a server-paged list on a page that exists. When the page asked for comes back empty past the end of the list
 * (its only row was deleted, another admin removed rows), `page` moves to the last page there is, instead of
 * leaving 'Nenhum … encontrado' on screen with rows one page back.
 *
 * Call it in the component that owns `page`, with the query's answer (`undefined` while loading). The state is
 * adjusted while rendering, as React's "storing information from previous renders" pattern does, rather than in an
 * effect that would first paint the empty page.
 */
export function useClampedPage(page: number, setPage: (page: number) => void, answer: PageAnswer | undefined): void {
  const target = pageToClampTo(page, answer);
  if (target !== null) setPage(target);
}
