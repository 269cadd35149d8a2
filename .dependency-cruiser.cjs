/**
 * The import-circle check and the direction of the packages (`pnpm lint`; docs/architecture.md).
 * Workspace packages resolve to their sources through tsconfig.json's `paths`, so a circle that
 * runs through two packages is found as well as one inside a package.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle, by value or by type: no module may reach itself again through its imports.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
