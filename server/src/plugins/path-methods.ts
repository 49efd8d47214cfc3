import { routeTable } from '../generated/route-table.ts';
import { routePattern } from './route-pattern.ts';

const templates = routeTable.map((route) => ({
  method: route.method,
  pattern: routePattern(route.url),
}));

/** The methods the spec defines for a concrete path (for 405 answers); empty when none match. */
export function methodsForPath(path: string): string[] {
  return [...new Set(templates.filter((template) => template.pattern.test(path)).map((template) => template.method))];
}
