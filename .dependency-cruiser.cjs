/**
 * The server's layers, checked by `pnpm lint` (see the README's Layout section and
 * server/ARCHITECTURE.json for the picture). From the ground up:
 *
 *   lib/, config/, db/          utilities, settings, the database (Kysely lives here and in repositories)
 *   tenancy/                    the tenant's types: project id, project and its config, the user record
 *   request-context/, kernel/   who is calling for which project; what a module is
 *   routing/, plugins/          HTTP plumbing every feature's handlers plug into
 *   modules/<feature>/          one folder per feature; they form a graph without cycles
 *   modules/index.ts, app.ts, services.ts, main.ts   the wiring: the one list of modules
 *
 * Test files are not cruised (they drive the whole app); the `testing/` folders they use are, and
 * nothing else may import them.
 */

/** Area folders (scripts/src/architecture/module-areas.json) group modules; a module is `<area>/<name>` or a top-level `<name>`. */
const areas = '(?:authentication|identity|organisations|messaging|billing|administration|platform)/';
const feature = `^server/src/modules/((?:${areas})?[^/]+)/`;
const moduleDoor = `^server/src/modules/(?:${areas})?[^/]+/index\\.ts$`;
const wiring = '^server/src/(app|services|main|start-banner)\\.ts$|^server/src/modules/index\\.ts$';
const testOnly = '(^|/)testing/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment:
        'Two folders import each other (directly or around a loop): one of them has to depend on the other through a hook or a port it exposes.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^server/src/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      from: { path: '^server/src/' },
      to: { circular: true },
    },
    {
      name: 'kysely-only-in-repositories-and-db',
      comment:
        'Queries live in *.repository.ts (and db/); tables are typed in *.table.ts and created by migrations. Services pass a transaction handle down and hold no query.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: ['^server/src/db/', '\\.repository\\.ts$', '\\.table\\.ts$', '/migrations/', testOnly] },
      to: { path: '^kysely$|node_modules/kysely/' },
    },
    {
      name: 'module-public-surface',
      comment:
        "A module's index.ts is its only door: another module imports what it exports there (service interfaces, types, the module definition), never its files.",
      severity: 'error',
      from: { path: feature, pathNot: testOnly },
      to: { path: '^server/src/modules/[^/]+/', pathNot: ['^server/src/modules/$1/', moduleDoor, '^server/src/modules/index\\.ts$'] },
    },
    {
      name: 'no-foreign-repository',
      comment: "A module reaches another module's data through that module's service, never its repository.",
      severity: 'error',
      from: { path: feature, pathNot: testOnly },
      to: { path: '\\.repository\\.ts$', pathNot: '^server/src/modules/$1/' },
    },
    {
      name: 'repositories-belong-to-their-module',
      comment: 'Only the module that owns a repository (and test helpers) imports it.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: [feature, testOnly] },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'foundations-import-no-feature',
      comment: 'lib, config, db, tenancy, request-context, kernel, routing and plugins sit below the features.',
      severity: 'error',
      from: { path: '^server/src/(lib|config|db|tenancy|request-context|kernel|routing|plugins)/' },
      to: { path: `^server/src/modules/|${wiring}` },
    },
    {
      name: 'features-import-no-wiring',
      comment: 'A feature names the services it needs in its module definition; it never takes the whole wired bag.',
      severity: 'error',
      from: { path: feature },
      to: { path: wiring },
    },
    {
      name: 'test-helpers-are-test-only',
      comment: 'testing/ folders (and vitest) serve tests only.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: testOnly },
      to: { path: `${testOnly}|\\.test\\.tsx?$|^vitest$|node_modules/vitest/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
