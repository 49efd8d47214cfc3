/**
 * Test code across the workspace, checked by `pnpm lint`: a package's tests use another package's
 * test helpers through that package's name (`@gatehouse/testing/<helper>`), never by a relative path
 * into its folders (a relative path to server/src/testing/), so helpers can move and packages stay separable.
 * Only the files given and their direct imports are read (maxDepth 1): the rule is about the edge.
 */
const workspacePackage = '(codegen|server|protocol|client|react|scripts|dashboard|docs|testing|examples/[^/]+)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'test-helpers-through-their-package',
      comment:
        "Another package's test helpers are imported through @gatehouse/testing (or that package's exports), never by a relative path into its src/testing/ or into testing/.",
      severity: 'error',
      from: { path: `^${workspacePackage}/` },
      to: {
        path: `^(?:${workspacePackage}/src/testing/|testing/)`,
        pathNot: '^$1/',
        dependencyTypes: ['local'],
      },
    },
  ],
  options: {
    maxDepth: 1,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '/generated/', '/fixtures/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};
