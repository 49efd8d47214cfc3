import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/**
 * Lint guard: no tracked source, script or config file names a relative path that climbs out of the
 * repository (a test that read `../shared/...` passed here and failed on every other clone).
 * Run by `pnpm lint`; `.ci/run` also runs the whole suite from a fresh clone in an empty folder.
 */
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const checked = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|ya?ml|sh)$|^\.ci\//;
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && checked.test(file) && !file.endsWith('pnpm-lock.yaml'));

/** A quoted relative path that starts by going up: `'../x'`, `"../../y"`, `` `../z` ``. */
const climbing = /(['"`])((?:\.\.\/)+[^'"`\s]*)\1/g;

function escapesOf(file: string, text: string, repoRoot: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(climbing)) {
    const target = resolve(repoRoot, dirname(file), match[2] as string);
    const inside = relative(repoRoot, target);
    if (inside.startsWith('..')) found.push(`${file}: '${match[2]}' resolves outside the repository`);
  }
  return found;
}

const problems = files.flatMap((file) => {
  let text: string;
  try {
    text = readFileSync(resolve(root, file), 'utf8');
  } catch {
    return []; // listed but deleted in the work tree
  }
  return escapesOf(file, text, root);
});
if (problems.length > 0) {
  console.error(`Paths outside the repository (keep what the project reads inside it):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`check-repo-paths: ${files.length} files, no path leaves the repository`);
