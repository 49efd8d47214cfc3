export type StartBuild = 'server' | 'example' | 'dashboard' | 'docs';
/** What `pnpm start` needs built: each build's output file (written last) and the sources it is made from. */
export const startBuilds: Record<StartBuild, { output: string; sources: string[] }>;
/** The newest modification time among the given files and folders (tests, dist and node_modules left out). */
export function newestSource(paths: string[]): number;
/** True when the build's output exists and is newer than every one of its sources. */
export function isBuildFresh(name: StartBuild): boolean;
/** True when `output` exists and is newer than every one of `sources`. */
export function isOutputFresh(build: { output: string; sources: string[] }): boolean;
