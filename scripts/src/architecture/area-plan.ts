/** The map module-areas.json holds (see its `$comment`). */
export interface AreaMap {
  root: string;
  areas: Record<string, { says: string; modules: Record<string, string> }>;
  files: Record<string, string>;
  patterns: { match: string; area: string }[];
}

export interface MovePlan {
  /** Old folder → new folder, repository-relative, longest first. */
  folderMoves: [string, string][];
  /** Old file → new file, repository-relative; wins over `folderMoves`. */
  fileMoves: Map<string, string>;
  /** Old module folder name → its path under the root after the move (`area/name`). */
  renamedModules: Map<string, string>;
  placedByPattern: { module: string; area: string }[];
  /** Module folders neither the map nor a pattern places: left where they are. */
  unknownModules: string[];
}

/**
 * Plans the move from the map and the folders now under the root (`moduleFolders`, names only).
 * Area folders and modules already moved are not modules to place; an unmapped folder is placed by
 * the first matching pattern or reported.
 */
export function planModuleMoves(map: AreaMap, moduleFolders: readonly string[]): MovePlan {
  const renamedModules = new Map<string, string>();
  for (const [area, { modules }] of Object.entries(map.areas)) {
    for (const [from, to] of Object.entries(modules)) renamedModules.set(from, `${area}/${to}`);
  }
  const areaNames = new Set(Object.keys(map.areas));
  const placedByPattern: MovePlan['placedByPattern'] = [];
  const unknownModules: string[] = [];
  for (const folder of [...moduleFolders].sort()) {
    if (areaNames.has(folder) || renamedModules.has(folder)) continue;
    const rule = map.patterns.find(({ match }) => new RegExp(match).test(folder));
    if (rule && areaNames.has(rule.area)) {
      renamedModules.set(folder, `${rule.area}/${folder}`);
      placedByPattern.push({ module: folder, area: rule.area });
    } else {
      unknownModules.push(folder);
    }
  }
  const folderMoves = [...renamedModules]
    .map(([from, to]): [string, string] => [`${map.root}/${from}`, `${map.root}/${to}`])
    .sort((a, b) => b[0].length - a[0].length);
  const fileMoves = new Map(Object.entries(map.files).map(([from, to]) => [`${map.root}/${from}`, `${map.root}/${to}`]));
  return { folderMoves, fileMoves, renamedModules, placedByPattern, unknownModules };
}

/** Where a repository-relative path (file or folder, existing or not) lives once `plan` is applied. */
export function destinationOf(plan: MovePlan, path: string): string {
  const exact = plan.fileMoves.get(path);
  if (exact !== undefined) return exact;
  for (const [from, to] of plan.folderMoves) {
    if (path === from) return to;
    if (path.startsWith(`${from}/`)) return to + path.slice(from.length);
  }
  return path;
}

/**
 * Rewrites repository paths written out in text (`server/src/modules/x/…`, `src/modules/x/…`,
 * `modules/x`) to where they live after the move. In code (`isCode`) a path written relative
 * (`../modules/x`) is a module specifier, rewritten by the import pass, so only unprefixed ones are
 * touched; elsewhere (docs, configs) every mention is. Names match whole: `email` is not `email-sending`.
 */
export function rewritePathMentions(plan: MovePlan, root: string, text: string, isCode: boolean): string {
  if (plan.renamedModules.size === 0) return text;
  const names = [...plan.renamedModules.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[-.]/g, '\\$&'));
  const before = isCode ? '(?<![\\w./-])' : '(?<![\\w-])';
  const pattern = new RegExp(`${before}((?:server/)?(?:src/)?modules/)(${names.join('|')})((?:/[\\w.-]+)*/?)(?![\\w-])`, 'g');
  return text.replace(pattern, (_all, prefix: string, name: string, rest: string) => {
    const moved = destinationOf(plan, `${root}/${name}${rest.replace(/\/$/, '')}`).slice(root.length + 1);
    return `${prefix}${moved}${rest.endsWith('/') ? '/' : ''}`;
  });
}
