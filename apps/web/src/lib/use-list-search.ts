import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from './use-debounced-value';

/**
 * The search text and page of a list searched and paginated on the server. `q` is the text once typing pauses (what
 * the query asks for); a new search starts from its first page. `initialSearch` comes from a link that opens the list
 * already filtered (a dashboard alert).
 */
export function useListSearch(initialSearch = '') {
  const [search, setSearchText] = useState(initialSearch);
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  function setSearch(text: string) {
    setSearchText(text);
    setPage(1);
  }
  return { search, setSearch, q, page, setPage };
}
