/**
 * A regular expression matching the concrete paths of a route url (`/a/:id/b`), with or without a
 * trailing slash, as the router treats them (ignoreTrailingSlash).
 */
export function routePattern(url: string): RegExp {
  const escaped = url
    .replace(/\/$/, '')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+');
  return new RegExp(`^${escaped}/?$`);
}
