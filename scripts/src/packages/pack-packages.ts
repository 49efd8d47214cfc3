import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildLibrary, libraryPackages } from '../build.ts';

const repositoryRoot = resolve(import.meta.dirname, '../../..');

export type PackedPackage = { name: `@gatehouse/${(typeof libraryPackages)[number]}`; tarball: string };

/**
 * The tarballs a release would publish: `pnpm pack` applies each package's `publishConfig` (the
 * `dist` exports) and turns `workspace:^` into the version range, as `pnpm publish` does. A package
 * whose `dist` is older than a source file is built first (CI builds just before the suite).
 */
export function packLibraries(destination: string): PackedPackage[] {
  return libraryPackages.map((name) => {
    const packageDir = join(repositoryRoot, name);
    if (isStale(packageDir)) buildLibrary(name);
    const [pnpm, ...pnpmArgs] = pnpmCommand;
    const pack = spawnSync(pnpm, [...pnpmArgs, 'pack', '--pack-destination', destination], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    if (pack.status !== 0) throw new Error(`pnpm pack failed in ${name}:\n${pack.stdout}\n${pack.stderr}`);
    const tarball = readdirSync(destination).find((file) => file.startsWith(`gatehouse-${name}-`) && file.endsWith('.tgz'));
    if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${name} into ${destination}`);
    return { name: `@gatehouse/${name}`, tarball: join(destination, tarball) };
  });
}

/** The pnpm that runs the suite (`pnpm test` sets npm_execpath), else the one the README names. */
const execPath = process.env.npm_execpath;
export const pnpmCommand: [string, ...string[]] = execPath?.includes('pnpm') ? [process.execPath, execPath] : ['npx', '-y', 'pnpm@10'];

function isStale(packageDir: string): boolean {
  const built = statSync(join(packageDir, 'dist/index.js'), { throwIfNoEntry: false });
  return built === undefined || newestSource(join(packageDir, 'src')) > built.mtimeMs;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}
