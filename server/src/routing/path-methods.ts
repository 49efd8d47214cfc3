import type { FastifyInstance } from 'fastify';
import { routeTable } from '../generated/route-table.ts';

const templates = routeTable.map((route) => ({
  method: route.method,
  pattern: new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+')}/?$`),
}));

/** The methods the spec defines for a concrete path (for 405 answers); empty when none match. */
export function methodsForPath(_app: FastifyInstance, path: string): string[] {
  return [...new Set(templates.filter((template) => template.pattern.test(path)).map((template) => template.method))];
}
