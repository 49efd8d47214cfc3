import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { generatedPages } from './reference-pages.ts';

/** `pnpm docs:generate`: writes the generated reference pages; `--check`: fails when one is stale. */
const check = process.argv.includes('--check');
const stale: string[] = [];
for (const page of generatedPages) {
  const text = page.render();
  const current = (() => {
    try {
      return readFileSync(page.path, 'utf8');
    } catch {
      return undefined;
    }
  })();
  if (current === text) continue;
  if (check) stale.push(relative(process.cwd(), page.path));
  else writeFileSync(page.path, text);
}
if (stale.length > 0) {
  console.error(`Stale generated docs pages (run pnpm docs:generate): ${stale.join(', ')}`);
  process.exit(1);
}
console.log(check ? `docs:generate --check: ${generatedPages.length} pages up to date` : 'docs: reference pages written');
