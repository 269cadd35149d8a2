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
    {
      name: 'no-own-entry',
      severity: 'error',
      comment: "A package's source imports its own modules by path, never through its own entry (an import circle waiting to happen).",
      from: { path: '^packages/([^/]+)/src/', pathNot: ['[.]test[.]ts$', '/__fixtures__/', '/testing/'] },
      to: { path: '^packages/$1/src/(index|internal|host)[.]ts$' },
    },
    // The direction of the packages (docs/architecture.md): a package's source imports only the
    // packages below it. Tests may reach further (a dream test runs on the file stores).
    ...[
      ['core', []],
      ['dream-state', ['core']],
      ['file-store', ['core', 'dream-state']],
      ['postgres', ['core', 'dream-state']],
      ['dream', ['core', 'dream-state']],
      ['reverie', ['core', 'dream-state', 'file-store', 'dream', 'postgres']],
      ['server', ['core', 'dream-state', 'dream', 'reverie']],
    ].map(([pkg, below]) => ({
      name: `direction-${pkg}`,
      severity: 'error',
      comment: `@reverie/${pkg}'s source imports only ${below.length === 0 ? 'no other package' : below.join(', ')}.`,
      from: { path: `^packages/${pkg}/src/`, pathNot: ['[.]test[.]ts$', '/__fixtures__/'] },
      to: { path: '^packages/([^/]+)/', pathNot: [`^packages/(${[pkg, ...below].join('|')})/`] },
    })),
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
