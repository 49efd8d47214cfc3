import { readFileSync } from 'node:fs';

let served: string | undefined;

/** The bundled spec as served text, read once (it is generated, and large). */
export function servedOpenApiDocument(): string {
  served ??= readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8');
  return served;
}
