import { useGatehouse, useLocation } from '@gatehouse/react';
import { type ReactNode, useRef, useState } from 'react';
import { useDashboardTranslation } from './i18n/dashboard-i18n.ts';
import { ErrorMessage, TableScroll } from './ui.tsx';

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
    /** Several filters at once (a filter form's submit), back to the first page. */
    setFilters(values: Record<string, string>) {
      trail.current = [];
      const next = withCursor(undefined);
      for (const [name, value] of Object.entries(values)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
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

/** What the pager needs of a paging: the cursor shown and the ways to move (`useUrlPaging`, `useStatePaging`). */
export type Paging = Pick<ReturnType<typeof useUrlPaging>, 'cursor' | 'hasPrevious' | 'first' | 'previous' | 'next'>;

/**
 * Keyset pages kept in the component (a list inside a panel whose subject is not in the URL, such as a
 * customer's invoices on the payments page); the same moves as `useUrlPaging`.
 */
export function useStatePaging(): Paging {
  const [trail, setTrail] = useState<Array<string | undefined>>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  return {
    cursor,
    hasPrevious: trail.length > 0,
    first() {
      setTrail([]);
      setCursor(undefined);
    },
    previous() {
      setCursor(trail.at(-1));
      setTrail(trail.slice(0, -1));
    },
    next(nextCursor: string) {
      setTrail([...trail, cursor]);
      setCursor(nextCursor);
    },
  };
}

/** First / previous / next over `useUrlPaging` or `useStatePaging`; "Next" waits while the shown page is a placeholder. */
export function Pager({
  label,
  paging,
  nextCursor,
  waiting,
}: {
  label: string;
  paging: Paging;
  nextCursor: string | null | undefined;
  waiting: boolean;
}) {
  const { t } = useDashboardTranslation();
  return (
    <nav className="dash-row dash-pager" aria-label={label}>
      <button type="button" disabled={!paging.cursor} onClick={paging.first}>
        {t('pager.first')}
      </button>
      <button type="button" disabled={!paging.hasPrevious} onClick={paging.previous}>
        {t('pager.previous')}
      </button>
      <button type="button" disabled={!nextCursor || waiting} onClick={() => nextCursor && paging.next(nextCursor)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

/** A column of a paged table: its header and what a row shows in it. */
export type Column<Row> = { header: ReactNode; cell: (row: Row) => ReactNode; className?: string };

/**
 * One keyset page of a list as a table, as the outbox and the transactions show theirs: the filters (a
 * "Loading…" status beside them while a page loads), a notice, the list's error, the empty text, the rows
 * under their column headers, and the pager (First / Previous / Next over `useUrlPaging`).
 */
export function PagedTable<Row>(props: {
  /** The table's accessible name; the pager is "Pages of …" with `pagerLabel`. */
  label: string;
  pagerLabel: string;
  paging: Paging;
  /** The page shown: its rows (undefined while the first one loads) and the cursor of the next. */
  rows: Row[] | undefined;
  nextCursor: string | null | undefined;
  fetching: boolean;
  placeholder: boolean;
  error: unknown;
  filters?: ReactNode;
  notice?: ReactNode;
  emptyText: string;
  columns: Array<Column<Row>>;
  rowKey: (row: Row) => string;
}) {
  const { t } = useDashboardTranslation();
  return (
    <>
      <div className="dash-row dash-toolbar">
        {props.filters}
        {props.fetching ? (
          <span role="status" className="dash-muted">
            {t('common.loading')}
          </span>
        ) : null}
      </div>
      {props.notice}
      <ErrorMessage error={props.error} />
      {props.rows && props.rows.length === 0 ? <p className="dash-muted">{props.emptyText}</p> : null}
      {props.rows && props.rows.length > 0 ? (
        <TableScroll label={props.label}>
          <table aria-label={props.label}>
            <thead>
              <tr>
                {props.columns.map((column, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
                  <th key={index} scope="col">
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={props.rowKey(row)}>
                  {props.columns.map((column, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
                    <td key={index} className={column.className}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <Pager label={props.pagerLabel} paging={props.paging} nextCursor={props.nextCursor} waiting={props.placeholder} />
    </>
  );
}
