/**
 * Moves the server's feature modules into area folders (server/src/modules/<area>/<module>/) as
 * module-areas.json says, and rewrites every reference to a moved file across the repository:
 * relative imports/exports/`import()`/`vi.mock()`/`new URL(…, import.meta.url)` in TypeScript and
 * JavaScript (through the TypeScript parser, so only real module specifiers change), and
 * repository paths such as `server/src/modules/email/…` in configs, docs and comments.
 *
 * Idempotent: a second run finds nothing at the old places and changes nothing. Built to be run
 * again over a tree where other branches were merged: files added under an old module folder move
 * with it, imports of moved files from anywhere are rewritten, and a module folder the map does not
 * know is placed by the map's `patterns` or left where it is and reported (never an error).
 *
 *   npx -y pnpm@10 exec tsx scripts/src/architecture/move-to-areas.ts [--dry-run]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { type AreaMap, destinationOf, planModuleMoves, rewritePathMentions } from './area-plan.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const mapPath = 'scripts/src/architecture/module-areas.json';
const dryRun = process.argv.includes('--dry-run');

const codeExtensions = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const textExtensions = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|jsonc|ya?ml|md|vue|html|css|txt|toml)$/;
/** Files this script must never rewrite: its own map (old names are its keys) and itself. */
const untouchable = new Set([
  mapPath,
  'scripts/src/architecture/move-to-areas.ts',
  'scripts/src/architecture/area-plan.ts',
  'scripts/src/architecture/area-plan.test.ts',
]);

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot });
  return out
    .toString('utf8')
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(repoRoot, file)));
}

const map = JSON.parse(readFileSync(join(repoRoot, mapPath), 'utf8')) as AreaMap;
const moduleFolders = readdirSync(join(repoRoot, map.root)).filter((name) => statSync(join(repoRoot, map.root, name)).isDirectory());
const plan = planModuleMoves(map, moduleFolders);

const destination = (path: string) => destinationOf(plan, path);

/** The string literals in a source file that name a module, with their positions. */
function moduleSpecifiers(file: string, text: string): { start: number; end: number; value: string }[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.match(/\.[cm]?js$/) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found: { start: number; end: number; value: string }[] = [];
  const take = (node: ts.Node | undefined) => {
    if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) {
      found.push({ start: node.getStart(source) + 1, end: node.getEnd() - 1, value: node.text });
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) take(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) take(node.argument.literal);
    else if (ts.isExternalModuleReference(node)) take(node.expression);
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) take(node.name);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        /^(require|vi\.(mock|doMock|unmock|importActual|importMock)|require\.resolve|import\.meta\.resolve)$/.test(callee)
      ) {
        take(node.arguments[0]);
      }
    } else if (
      ts.isNewExpression(node) &&
      node.expression.getText(source) === 'URL' &&
      node.arguments?.[1]?.getText(source) === 'import.meta.url'
    ) {
      take(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function rewriteRelativeSpecifiers(file: string, newFile: string, text: string): string {
  const edits = moduleSpecifiers(file, text).flatMap(({ start, end, value }) => {
    if (!value.startsWith('./') && !value.startsWith('../')) return [];
    const target = posix.normalize(posix.join(posix.dirname(file), value));
    const newTarget = destination(target);
    if (newTarget === target && newFile === file) return [];
    let spec = posix.relative(posix.dirname(newFile), newTarget) || '.';
    if (!spec.startsWith('.')) spec = `./${spec}`;
    if (value.endsWith('/') && !spec.endsWith('/')) spec += '/';
    return spec === value ? [] : [{ start, end, spec }];
  });
  let out = text;
  for (const { start, end, spec } of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, start) + spec + out.slice(end);
  return out;
}

function main() {
  const files = trackedFiles();
  const moves = files.map((file) => ({ from: file, to: destination(file) })).filter(({ from, to }) => from !== to);
  const conflicts = moves.filter(({ to }) => existsSync(join(repoRoot, to)));
  let rewritten = 0;
  const changedCode: string[] = [];
  for (const file of files) {
    if (untouchable.has(file) || file.includes('node_modules/') || !textExtensions.test(file)) continue;
    const original = readFileSync(join(repoRoot, file), 'utf8');
    const isCode = codeExtensions.test(file);
    let text = isCode ? rewriteRelativeSpecifiers(file, destination(file), original) : original;
    text = rewritePathMentions(plan, map.root, text, isCode);
    if (text !== original) {
      rewritten += 1;
      if (isCode) changedCode.push(destination(file));
      if (!dryRun) writeFileSync(join(repoRoot, file), text);
    }
  }
  const movable = moves.filter((move) => !conflicts.includes(move));
  if (!dryRun) {
    for (const { from, to } of movable) {
      mkdirSync(dirname(join(repoRoot, to)), { recursive: true });
      renameSync(join(repoRoot, from), join(repoRoot, to));
    }
    for (const { from } of movable) removeEmptyFolders(dirname(join(repoRoot, from)));
    // Longer paths can push an import past the line width: the repository's formatter lays them out again.
    const formattable = changedCode.filter((file) => existsSync(join(repoRoot, file)) && !/\.(cjs|mjs|js)$/.test(file));
    if (formattable.length > 0) {
      try {
        execFileSync(join(repoRoot, 'node_modules/.bin/biome'), ['format', '--write', '--no-errors-on-unmatched', ...formattable], {
          cwd: repoRoot,
          stdio: 'ignore',
        });
      } catch {
        console.log('biome format reported problems: run `npx -y pnpm@10 format` and look');
      }
    }
  }
  console.log(`${dryRun ? '[dry run] ' : ''}moved ${movable.length} files, rewrote references in ${rewritten} files`);
  for (const [from, to] of plan.folderMoves) console.log(`  ${from}/ -> ${to}/`);
  for (const { module, area } of plan.placedByPattern) console.log(`placed by pattern: ${module} -> ${area}/${module}`);
  for (const name of plan.unknownModules) console.log(`NOT IN THE MAP, left in place: ${map.root}/${name}/ (add it to ${mapPath})`);
  for (const { from, to } of conflicts) console.log(`CONFLICT, not moved: ${from} (${to} exists already)`);
}

function removeEmptyFolders(dir: string) {
  const stop = join(repoRoot, map.root);
  let current = dir;
  while (current.startsWith(stop) && current !== stop && existsSync(current) && readdirSync(current).length === 0) {
    rmdirSync(current);
    current = dirname(current);
  }
}

if (relative(repoRoot, process.cwd()).startsWith('..')) console.warn(`note: rewriting ${repoRoot}`);
main();
