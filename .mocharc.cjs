// Files run two at a time, each worker with its own databases (PGlite instances, or PostgreSQL
// databases made from one template). The PostgreSQL event store's visibility horizon is per
// database, so one file's deliberately long transaction does not hold back another file's reads.
module.exports = {
  'node-option': ['import=tsx'],
  require: ['test/support/hooks.ts'],
  extension: ['ts'],
  timeout: 30000,
  exit: true,
  parallel: true,
  jobs: 2,
};
