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
        'Every server folder but plugins/ and routes/ (rooms, daily, races, players, ratings, pairing, arenas, db, bus, solver, fairness, maintenance, http, …) knows nothing of Fastify plugins or routes: plugins wire them, routes call them.',
      from: { path: '^apps/server/src/(?!plugins/|routes/)[^/]+/' },
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
      name: 'web-pages-reach-api-through-helpers',
      severity: 'error',
      comment:
        "A web page or component reaches the API through a composable or a lib/ helper (lib/dailyApi.ts, lib/errors.ts, …), never lib/api.ts, which holds the player's token and the transport.",
      from: { path: '^apps/web/src/(pages|components)/' },
      to: { path: '^apps/web/src/lib/api\\.ts$' },
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
