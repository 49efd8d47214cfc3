import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitApiTypes } from './emit-api-types.ts';
import { emitCatalogues } from './emit-catalogues.ts';
import { emitDashboardCatalogues } from './emit-dashboard-catalogues.ts';
import { emitClientOperations } from './emit-client-operations.ts';
import { emitErrors } from './emit-errors.ts';
import { emitOpenApiJson } from './emit-openapi-json.ts';
import { emitReactHooks } from './emit-react-hooks.ts';
import { emitRouteTable } from './emit-route-table.ts';
import type { GeneratedFile } from './generated-file.ts';
import { loadSpec } from './load-spec.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Folders owned by the codegen: anything in them that no emitter produced is stale. */
const generatedDirs = ['server/src/generated', 'protocol/src/generated', 'react/src/generated', 'dashboard/src/generated/i18n'];

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const doc = await loadSpec(join(repoRoot, 'openapi/v1.yaml'));
  const files = [
    ...emitOpenApiJson(doc),
    ...emitRouteTable(doc),
    ...(await emitApiTypes(doc)),
    ...emitErrors(doc),
    ...emitClientOperations(doc),
    ...(await emitReactHooks(doc, repoRoot)),
    ...(await emitCatalogues(repoRoot)),
    ...(await emitDashboardCatalogues(repoRoot)),
  ];
  if (check) {
    const differences = await compare(files);
    if (differences.length > 0) {
      console.error(`Generated code is stale (run \`pnpm codegen\`):\n${differences.map((d) => `  ${d}`).join('\n')}`);
      process.exit(1);
    }
    console.log(`codegen --check: ${files.length} generated files are up to date`);
    return;
  }
  for (const dir of generatedDirs) await rm(join(repoRoot, dir), { recursive: true, force: true });
  for (const file of files) {
    await mkdir(dirname(join(repoRoot, file.path)), { recursive: true });
    await writeFile(join(repoRoot, file.path), file.content);
  }
  console.log(`codegen: wrote ${files.length} files`);
}

/** Regenerated output (held in memory, never written over the tree) against what is committed. */
async function compare(files: GeneratedFile[]): Promise<string[]> {
  const differences: string[] = [];
  const expected = new Set(files.map((file) => file.path));
  for (const file of files) {
    const current = await readFile(join(repoRoot, file.path), 'utf8').catch(() => undefined);
    if (current === undefined) differences.push(`missing: ${file.path}`);
    else if (current !== file.content) differences.push(`differs: ${file.path}`);
  }
  for (const dir of generatedDirs) {
    for (const path of await listFiles(dir)) if (!expected.has(path)) differences.push(`not generated: ${path}`);
  }
  return differences;
}

async function listFiles(relative: string): Promise<string[]> {
  const entries = await readdir(join(repoRoot, relative), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? listFiles(`${relative}/${entry.name}`) : [`${relative}/${entry.name}`])),
  );
  return nested.flat();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
