/**
 * The house's import boundaries, checked by `pnpm lint` (dependency-cruiser). Imports run downwards:
 * apps → packages; inside the server, routes and plugins → domain modules, never back.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: two modules that cannot be understood (or changed) one without the other.',
      from: { pathNot: 'node_modules' },
      to: { circular: true },
    },
    {
      name: 'packages-stay-below-apps',
      severity: 'error',
      comment: 'A package imports no app code: the apps use the packages, not the other way round.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'rules-are-pure',
      severity: 'error',
      comment: 'The rules package does no I/O: no node: modules (docs/architecture.md).',
      from: { path: '^packages/klondike/src' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-below-fastify',
      severity: 'error',
      comment:
        'Domain modules (rooms, daily, races, players, db, fairness) know nothing of Fastify plugins or routes: plugins wire them, routes call them.',
      from: { path: '^apps/server/src/(rooms|daily|races|players|db|fairness)/' },
      to: { path: '^apps/server/src/(plugins|routes)/' },
    },
    {
      name: 'rooms-know-no-kinds',
      severity: 'error',
      comment:
        'The game log (rooms) knows no daily and no race: their rules reach it as policies (rooms/policies.ts), declared in plugins/game-policies.ts.',
      from: { path: '^apps/server/src/rooms/' },
      to: { path: '^apps/server/src/(daily|races)/' },
    },
    {
      name: 'plugins-below-routes',
      severity: 'error',
      comment: 'Plugins provide dependencies to routes; they do not import routes.',
      from: { path: '^apps/server/src/plugins/' },
      to: { path: '^apps/server/src/routes/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
