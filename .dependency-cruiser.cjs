/**
 * The house's import boundaries, checked by `pnpm lint` (dependency-cruiser). Imports run downwards:
 * apps → packages; inside the server, edge → features → core → infra, and inside a folder its Fastify files
 * (plugin, routes, channel, module) → its domain files, never back (docs/architecture.md).
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
      name: 'infra-is-the-floor',
      severity: 'error',
      comment:
        'Infrastructure (src/infra: db, bus, http, config, dates, errors) knows nothing above it: no core, no feature, no edge.',
      from: { path: '^apps/server/src/infra/' },
      to: { path: '^apps/server/src/(core|features|edge)/' },
    },
    {
      name: 'core-knows-no-features',
      severity: 'error',
      comment:
        'The core (src/core: the game rooms and the game log) knows no daily, race or arena: their rules reach it as game policies, declared by each feature.',
      from: { path: '^apps/server/src/core/' },
      to: { path: '^apps/server/src/(features|edge)/' },
    },
    {
      name: 'features-below-the-edge',
      severity: 'error',
      comment:
        'A feature knows nothing of the Fastify edge (src/edge: the app, the socket transport, the shared plugins).',
      from: { path: '^apps/server/src/features/' },
      to: { path: '^apps/server/src/edge/' },
    },
    {
      name: 'domain-below-fastify',
      severity: 'error',
      comment:
        "Inside a feature or the core, the domain files know nothing of the folder's Fastify files (plugin.ts, routes.ts, *-routes.ts, channel.ts, module.ts): those wire the domain, never the other way round.",
      from: {
        path: '^apps/server/src/(core|features)/[^/]+/',
        pathNot: '/(plugin|routes|channel|module|[a-z-]+-routes)\\.ts$',
      },
      to: {
        path: '^apps/server/src/(core|features)/[^/]+/(plugin|routes|channel|module|[a-z-]+-routes)\\.ts$',
      },
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
      from: { path: '/plugin\\.ts$|^apps/server/src/edge/plugins/' },
      to: { path: '/(routes|[a-z-]+-routes)\\.ts$' },
    },
    {
      name: 'prisma-only-in-repositories',
      severity: 'error',
      comment:
        "Prisma (the generated client, PrismaClient, Prisma's types) is used only in src/infra/db and in a feature's repository files (repository.ts, or <name>-repository.ts): the rest of a feature decides and asks its repository for rows (docs/architecture.md).",
      from: {
        path: '^apps/server/src/',
        pathNot: '^apps/server/src/(infra/db|generated)/|/(repository|[a-z-]+-repository)\\.ts$',
      },
      to: { path: '^apps/server/src/generated/' },
    },
  ],
  options: {
    // The generated Prisma client is a leaf: imported (so prisma-only-in-repositories sees it), never cruised.
    doNotFollow: { path: '(^|/)(node_modules|generated)/' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
