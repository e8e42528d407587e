/**
 * Part of the build: a new embedded database, created and migrated once here in
 * dist/pgdata-template. A first start with an empty DATA_DIR copies it instead of running
 * PostgreSQL's initdb in WebAssembly, which alone costs several times a restart.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const TEMPLATE = 'pgdata-template';

export async function makeTemplate(buildDir) {
  const load = (path) => import(pathToFileURL(join(buildDir, path)).href);
  const { openPGlite } = await load('infra/db/create-db.js');
  const { migrate } = await load('infra/db/migrations/index.js');
  const database = await openPGlite({ dataDir: join(buildDir, TEMPLATE) });
  await migrate(database.db);
  await database.close();
}

if (process.argv[1] === import.meta.filename) await makeTemplate(process.argv[2]);
