// Files run two at a time on the embedded database (each worker has its own PGlite instances). On
// PostgreSQL they run one at a time: the event store reads only below the cluster-wide snapshot
// xmin, so one file's deliberately long transaction would hold back another file's reads.
module.exports = {
  'node-option': ['import=tsx'],
  require: ['test/support/hooks.ts'],
  extension: ['ts'],
  timeout: 30000,
  exit: true,
  parallel: !process.env.DATABASE_URL,
  jobs: 2,
};
