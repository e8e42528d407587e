// The embedded database's own thread: PGlite runs its SQL synchronously, so on the service's main
// thread a long statement would also stop the event loop (no request could even be read). Plain
// JavaScript importing PGlite only, so it runs the same under tsx and from compiled output.
// Messages: { op: 'open', ... } first, then { id, op: 'query' | 'exec' | 'dump' | 'close', ... } in;
// { ready } once open, and { id, result } or { id, error } out. A query may carry `begin`: the
// transaction's begin, run first (the query does not run if it fails).
import { cpSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
// Trigram indexes serve name substring search (migration 0185); an index on them needs the extension loaded at every open.
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The database, opened by the first message: the thread may start before the service knows which
 * one (infra/main.ts: it boots meanwhile). Calls that arrive while it opens wait for it, in order;
 * a database that cannot open ends the thread.
 */
let database;

function opening(options) {
  const opened = open(options);
  opened.then(
    () => parentPort.postMessage({ ready: true }),
    (error) => setImmediate(() => {
      throw error;
    }),
  );
  return opened;
}

async function open({ dataDir, loadDataDir, settings, seed }) {
  if (seed) cpSync(seed, dataDir, { recursive: true });
  const startParams = [...PGlite.defaultStartParams, ...settings];
  const extensions = { pg_trgm };
  if (dataDir) return PGlite.create(dataDir, { startParams, extensions });
  return PGlite.create({ startParams, extensions, ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}) });
}

async function answer(message) {
  const pglite = await database;
  switch (message.op) {
    case 'query': {
      if (message.begin) await pglite.exec(message.begin);
      const { rows, affectedRows } = await pglite.query(message.sql, message.params);
      return { result: { rows, affectedRows } };
    }
    case 'exec':
      return { result: (await pglite.exec(message.sql)).map(({ rows, affectedRows }) => ({ rows, affectedRows })) };
    case 'dump': {
      const tar = await (await pglite.dumpDataDir(message.compression)).arrayBuffer();
      return { result: tar, transfer: [tar] };
    }
    case 'close':
      await pglite.close();
      return { result: undefined };
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

/** An error crosses the thread as its own fields (SQLSTATE code, detail, constraint), which a clone of the Error drops. */
function fieldsOf(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = Object.fromEntries(Object.entries(error).filter(([, value]) => ['string', 'number'].includes(typeof value)));
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
}

parentPort.on('message', (message) => {
  if (message.op === 'open') {
    database = opening(message);
    return;
  }
  answer(message).then(
    ({ result, transfer }) => parentPort.postMessage({ id: message.id, result }, transfer ?? []),
    (error) => parentPort.postMessage({ id: message.id, error: fieldsOf(error) }),
  );
});
