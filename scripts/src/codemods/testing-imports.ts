import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

/**
 * Codemod: the test helpers moved from `server/src/testing/` to the `@gatehouse/testing` package
 * (`testing/src/`). Re-runnable and idempotent, for branches written against the old layout:
 *
 * 1. a file still under `server/src/testing/` (a helper added by another branch) is `git mv`-ed to
 *    the same place under `testing/src/`;
 * 2. anywhere in the repository, a relative import of a helper (`../../server/src/testing/x.ts`, or a
 *    relative path into `testing/src/` from outside the package) becomes `@gatehouse/testing/x`;
 * 3. in `testing/src/`, a relative import written for the old location (`../app.ts`) becomes
 *    `@gatehouse/server/src/app.ts`, and one into another folder of the repository is re-based.
 *
 * Run from the repository root: `npx -y pnpm@10 exec tsx scripts/src/codemods/testing-imports.ts`
 * (`--check` lists what it would change and exits 1 if anything would).
 */
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const oldHome = 'server/src/testing/';
const newHome = 'testing/src/';
const checkOnly = process.argv.includes('--check');

function gitFiles(...args: string[]): string[] {
  return execFileSync('git', ['ls-files', '-z', ...args], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
}

function moveLeftoverHelpers(): string[] {
  const moved: string[] = [];
  for (const file of gitFiles('--cached', '--', oldHome)) {
    if (!existsSync(join(root, file))) continue;
    const target = newHome + file.slice(oldHome.length);
    if (existsSync(join(root, target))) {
      console.error(`skipped ${file}: ${target} exists already (merge the two by hand)`);
      continue;
    }
    moved.push(`${file} -> ${target}`);
    if (checkOnly) continue;
    mkdirSync(dirname(join(root, target)), { recursive: true });
    execFileSync('git', ['mv', file, target], { cwd: root });
  }
  // git mv leaves the emptied folders behind.
  if (!checkOnly && existsSync(join(root, oldHome))) execFileSync('find', [oldHome, '-type', 'd', '-empty', '-delete'], { cwd: root });
  return moved;
}

/** `from '…'`, `import '…'`, `import('…')`, `vi.mock('…')`, `vi.importActual('…')`: the relative ones. */
const specifier = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.(?:mock|doMock|unmock|importActual)\(\s*)(['"])(\.\.?\/[^'"]+)\2/g;

function packageSubpath(repoPath: string): string {
  return `@gatehouse/testing/${repoPath.slice(newHome.length).replace(/\.(ts|tsx|js)$/, '')}`;
}

function relativeSpecifier(fromFile: string, repoPath: string): string {
  const path = posix.relative(posix.dirname(fromFile), repoPath);
  return path.startsWith('.') ? path : `./${path}`;
}

/** The new specifier for `spec` imported by `file`, or undefined when it stays as it is. */
function rewrite(file: string, spec: string): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(file), spec));
  if (!file.startsWith(newHome)) {
    if (target.startsWith(oldHome)) return packageSubpath(newHome + target.slice(oldHome.length));
    if (target.startsWith(newHome)) return packageSubpath(target);
    return undefined;
  }
  if (target.startsWith(newHome)) return undefined;
  // Written for the file's old place under server/src/testing/.
  const oldTarget = posix.normalize(posix.join(posix.dirname(oldHome + file.slice(newHome.length)), spec));
  if (oldTarget.startsWith(oldHome)) return relativeSpecifier(file, newHome + oldTarget.slice(oldHome.length));
  if (existsSync(join(root, target)) && !existsSync(join(root, oldTarget))) return undefined;
  if (oldTarget.startsWith('server/')) return `@gatehouse/${oldTarget}`;
  return relativeSpecifier(file, oldTarget);
}

function rewriteFile(file: string): number {
  const text = readFileSync(join(root, file), 'utf8');
  let changes = 0;
  const next = text.replace(specifier, (whole, lead: string, quote: string, spec: string) => {
    const replacement = rewrite(file, spec);
    if (replacement === undefined || replacement === spec) return whole;
    changes += 1;
    return `${lead}${quote}${replacement}${quote}`;
  });
  if (changes > 0 && !checkOnly) writeFileSync(join(root, file), next);
  return changes;
}

const moved = moveLeftoverHelpers();
const sources = gitFiles('--cached', '--others', '--exclude-standard').filter(
  (file) => /\.(ts|tsx|mts|cts)$/.test(file) && !file.includes('/generated/') && existsSync(join(root, file)),
);
const rewritten = sources.flatMap((file) => {
  const count = rewriteFile(file);
  return count > 0 ? [`${relative(root, join(root, file))} (${count})`] : [];
});
for (const line of moved) console.log(`moved ${line}`);
for (const line of rewritten) console.log(`${checkOnly ? 'would rewrite' : 'rewrote'} ${line}`);
console.log(`${moved.length} helper(s) moved, ${rewritten.length} file(s) ${checkOnly ? 'to rewrite' : 'rewritten'}`);
if (checkOnly && moved.length + rewritten.length > 0) process.exitCode = 1;
