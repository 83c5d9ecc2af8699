// The dependency rules of docs/decisions/0021-one-way-dependencies.md, checked by `npm run lint` (dependency-cruiser,
// every import including type-only ones and index re-exports). tests/unit/dependency-rules.test.ts proves that each
// rule fails a deliberate violation.
//
// Web app layers, lowest first; a layer imports only the ones below it:
//   src/api → src/lib → src/machines → src/app → src/entities → src/ui → src/features → src/shell → src/router → src/App.tsx, src/main.tsx
// The router's data modules (routeTypes, routeMeta, access: what a route is, no page) sit below the views, which link with them.
// Server: http, auth, db, lib, geo, mail, operations, pms, jobs and optimizer never import the modules; the optimizer
// imports nothing else of the server; the modules that read or plan a day (sync, optimisation runs, travel,
// reports, dashboard, nearby, reminders, appointments) depend on the schedule module, never the other way.

const WEB_LAYERS = ['api', 'lib', 'machines', 'app', 'entities', 'ui', 'features', 'shell', 'router'];
const ROUTER_DATA = '^src/router/(routeTypes|routeMeta|access)\\.ts$';

/** One rule per web layer: it never imports a layer above it. */
const webLayerRules = WEB_LAYERS.slice(0, -1).map((layer, index) => ({
  name: 'web-layer-imports-higher',
  severity: 'error',
  comment: `src/${layer} imports only the layers below it (${WEB_LAYERS.slice(0, index).join(', ') || 'none'}); move what it needs down.`,
  from: { path: `^src/${layer}/` },
  to: {
    path: [`^src/(${WEB_LAYERS.slice(index + 1).join('|')})/`, '^src/(App|main)\\.tsx?$'],
    pathNot: ROUTER_DATA,
  },
}));

const MODULE_USERS_OF_SCHEDULE = ['appointments', 'sync', 'optimizations', 'travel', 'reports', 'dashboard', 'nearby', 'reminders'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle in the web app or the server, type-only imports and index re-exports included.',
      from: { path: '^(src|server/src)/' },
      to: { circular: true },
    },
    {
      name: 'feature-imports-feature',
      severity: 'error',
      comment: 'A feature never imports another feature: what two share moves down to src/entities (data, facts) or src/ui (views).',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: '^src/features/$1/' },
    },
    ...webLayerRules,
    {
      name: 'web-imports-router-pages',
      severity: 'error',
      comment: 'Below the router only its data modules (routeTypes, routeMeta, access) are imported; the route table and pages are the router\'s own.',
      from: { path: '^src/(?!router/)', pathNot: '^src/(App|main)\\.tsx?$' },
      to: { path: '^src/router/', pathNot: ROUTER_DATA },
    },
    {
      name: 'server-lower-imports-modules',
      severity: 'error',
      comment: 'The server\'s lower layers (http, auth, db, lib, geo, mail, operations, pms, jobs, optimizer) never import the modules: hand them what they need where they are started.',
      from: { path: '^server/src/(http|auth|db|lib|geo|mail|operations|pms|jobs|optimizer)/' },
      to: { path: '^server/src/(modules|app|main|worker-main|cli|demo)(/|\\.ts$)' },
    },
    {
      name: 'optimizer-imports-server',
      severity: 'error',
      comment: 'The optimizer is a pure library: it knows nothing of HTTP, the database or the modules.',
      from: { path: '^server/src/optimizer/' },
      to: { path: '^server/src/(?!optimizer/)' },
    },
    {
      name: 'schedule-imports-its-users',
      severity: 'error',
      comment: 'The schedule module is the core: the modules that read or plan a day depend on it, never the other way.',
      from: { path: '^server/src/modules/schedule/' },
      to: { path: `^server/src/modules/(${MODULE_USERS_OF_SCHEDULE.join('|')})/` },
    },
    {
      name: 'server-imports-web',
      severity: 'error',
      comment: 'The server never imports the web app (a rule both share lives in server/src/lib, which the web app may read); its tests may compare with it.',
      from: { path: '^server/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'product-imports-tests',
      severity: 'error',
      comment: 'Product code never imports tests or test support.',
      from: { path: '^(src|server/src)/', pathNot: ['\\.test\\.tsx?$', '^src/testing/'] },
      to: { path: ['\\.test\\.tsx?$', '^tests/', '^src/testing/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src|server|tests)/',
    exclude: { path: '^(openapi/generated|server/src/pms/cliniko/cliniko-schema\\.d\\.ts)' },
    // Type-only imports count: a cycle through types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    skipAnalysisNotInRules: true,
    cache: false,
  },
};
