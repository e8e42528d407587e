/**
 * The layers of the service, checked on every `npm test` (`npm run depcheck`).
 *
 *   shared/      the domain vocabulary (events, ids, errors, names): imports nothing of the others
 *      ^
 *   infra/       ports and adapters (event store, db, projections, tasks, http, upstreams, auth)
 *      ^
 *   command/  query/  projectors/     the slices: write side, read side, read models
 *
 * - command/ and query/ never import each other. What the write side must read is a read function
 *   next to the read model that answers it (projectors/<slice>/<model>.reads.ts) or a lookup of its
 *   own (command/<slice>/*.lookups.ts); a GET that must write calls a command through a port in
 *   infra/ports/ (ctx.commands.*), implemented by command/ and wired in the composition root.
 * - projectors/ never import command/ or query/.
 * - Only the composition roots see every layer: infra/routes.ts, infra/service.ts and the
 *   registries (infra/tasks/registry.ts, infra/reactors/registry.ts, infra/commands.ts); the
 *   table registry infra/db/database.ts sees the read models' table types (type-only) for kysely.
 * - No import cycles, type-only imports included.
 * - A route file exports its routes only: a helper other files need lives in a module of its own.
 *
 * docs/architecture.md draws the same picture and says where a new slice's files go.
 */
const compositionRoots = '^infra/(routes|service|commands|main|replay)[.]ts$|^infra/(tasks|reactors)/registry[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'command-not-query',
      severity: 'error',
      comment: 'The write side reads through projectors/<slice>/*.reads.ts or its own *.lookups.ts, never a query module.',
      from: { path: '^command/' },
      to: { path: '^query/' },
    },
    {
      name: 'query-not-command',
      severity: 'error',
      comment: 'A GET that must write calls a command through a port (infra/ports/, ctx.commands), never a command module.',
      from: { path: '^query/' },
      to: { path: '^command/' },
    },
    {
      name: 'projectors-not-sides',
      severity: 'error',
      comment: 'Read models are built from events only: projectors/ import neither command/ nor query/.',
      from: { path: '^projectors/' },
      to: { path: '^(command|query)/' },
    },
    {
      name: 'shared-imports-no-layer',
      severity: 'error',
      comment: 'shared/ is the vocabulary: it imports nothing of infra/, command/, query/ or projectors/.',
      from: { path: '^shared/' },
      to: { path: '^(infra|command|query|projectors)/' },
    },
    {
      name: 'infra-imports-no-slice',
      severity: 'error',
      comment: 'infra/ holds ports and adapters; only the composition roots see command/, query/ and projectors/.',
      from: { path: '^infra/', pathNot: compositionRoots },
      to: { path: '^(command|query|projectors)/', pathNot: '^projectors/[^/]+/[^/]+[.]table[.]ts$' },
    },
    {
      name: 'tables-by-the-table-registry',
      severity: 'error',
      comment: "A read model's table type reaches infra/ only through kysely's Database interface (infra/db/database.ts).",
      from: { path: '^infra/', pathNot: `${compositionRoots}|^infra/db/database[.]ts$` },
      to: { path: '^projectors/[^/]+/[^/]+[.]table[.]ts$' },
    },
    {
      name: 'routes-export-routes-only',
      severity: 'error',
      comment: 'Only the composition root imports a route file: shared helpers live in a non-route module of the slice.',
      from: { path: '^(command|query|projectors|infra|shared)/', pathNot: '^infra/routes[.]ts$' },
      to: { path: '[.]routes[.]ts$' },
    },
    {
      name: 'domain-without-adapters',
      severity: 'error',
      comment: 'Deciders, events and pure scoring import no express, got or kysely.',
      from: { path: '(^shared/|[.]decider[.]ts$)' },
      to: { path: 'node_modules/(express|got|kysely)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(test|node_modules/.+/node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    cache: false,
  },
};
