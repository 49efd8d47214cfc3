/** A query parameter of the current page (handler pages read `code`, `error`, ... from their URL). */
export function queryParam(name: string): string | null {
  return new URLSearchParams(window.location.search).get(name);
}
