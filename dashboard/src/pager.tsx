import { useGatehouse, useLocation } from '@gatehouse/react';
import { useRef } from 'react';

/**
 * Keyset pages of a list whose filters and cursor are in the URL (`?status=…&cursor=…`), so a page can
 * be linked and reloaded. "Previous" goes back along the cursors walked to get here (a linked deep page
 * starts a new trail); changing a filter starts again at the first page.
 */
export function useUrlPaging() {
  const gatehouse = useGatehouse();
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const cursor = params.get('cursor') ?? undefined;
  const trail = useRef<Array<string | undefined>>([]);
  const go = (next: URLSearchParams) => {
    const query = next.toString();
    gatehouse.navigate(`${pathname}${query ? `?${query}` : ''}`);
  };
  const withCursor = (value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set('cursor', value);
    else next.delete('cursor');
    return next;
  };
  return {
    cursor,
    filter: (name: string) => params.get(name) ?? '',
    setFilter(name: string, value: string) {
      trail.current = [];
      const next = withCursor(undefined);
      if (value) next.set(name, value);
      else next.delete(name);
      go(next);
    },
    hasPrevious: trail.current.length > 0,
    first() {
      trail.current = [];
      go(withCursor(undefined));
    },
    previous() {
      go(withCursor(trail.current.pop()));
    },
    next(nextCursor: string) {
      trail.current.push(cursor);
      go(withCursor(nextCursor));
    },
  };
}

/** First / previous / next over `useUrlPaging`; "Next" waits while the shown page is a placeholder. */
export function Pager({
  label,
  paging,
  nextCursor,
  waiting,
}: {
  label: string;
  paging: ReturnType<typeof useUrlPaging>;
  nextCursor: string | null | undefined;
  waiting: boolean;
}) {
  return (
    <nav className="dash-row dash-pager" aria-label={label}>
      <button type="button" disabled={!paging.cursor} onClick={paging.first}>
        First page
      </button>
      <button type="button" disabled={!paging.hasPrevious} onClick={paging.previous}>
        Previous page
      </button>
      <button type="button" disabled={!nextCursor || waiting} onClick={() => nextCursor && paging.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}
