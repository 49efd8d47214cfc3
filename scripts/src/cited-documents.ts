import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Comments cite documents (`docs/protocol/endpoints.md §9`); a citation of a file that is not in the
 * repository sends the reader nowhere (about a hundred once cited `endpoints.md`, `entities.md` and a
 * "protocol README §n" kept outside it). `missingCitations` lists the citations in a file's text that
 * resolve neither from the repository root nor from the file's own folder.
 */
const markdownPath = /(?<![\w./:-])((?:\.{1,2}\/|[\w-]+\/)*[\w.-]+\.md)\b/g;
/** "README §4" or "protocol README §4" with no path: which README? */
const sectionOfUnnamedReadme = /(?<![\w./-])(?:protocol )?README §/g;

export function missingCitations(repositoryRoot: string, file: string, text: string): string[] {
  const missing: string[] = [];
  for (const match of text.matchAll(markdownPath)) {
    const cited = match[1]!;
    if (cited === '.md') continue;
    const candidates = [join(repositoryRoot, cited), join(repositoryRoot, dirname(file), cited)];
    if (!candidates.some((candidate) => existsSync(candidate))) missing.push(`${file}: ${cited}`);
  }
  for (const match of text.matchAll(sectionOfUnnamedReadme)) missing.push(`${file}: "${match[0]}" names no document`);
  return missing;
}

/** The files whose comments are checked: sources, scripts, the spec; not generated code, test fixtures, or this check (which quotes the bad forms). */
export const citingFile = (path: string) =>
  /\.(ts|tsx|mts|cts|mjs|cjs|ya?ml|sql)$/.test(path) &&
  !/(^|\/)(generated|fixtures|node_modules)\//.test(path) &&
  !path.endsWith('pnpm-lock.yaml') &&
  !path.startsWith('scripts/src/cited-documents.');
