/**
 * The bulk import's rate on a history that names many distinct tracks (the canonical layer grows
 * while it imports): `npx tsx test/bench/scrobble-import-bench.ts`. BENCH_SCROBBLES (default 5000)
 * scrobbles over BENCH_ARTISTS (default 50) artists of 4 albums of 5 tracks each (1,000 tracks).
 */
import { setLogLevel } from '../../infra/logger.ts';
import { startTestApp } from '../support/api.ts';
import { signedInAs } from '../support/given.ts';
import { linkThroughBrowser } from '../support/scrobbler.ts';
import { dropTemplates } from '../support/database.ts';
import { generatedHistory, startScrobblerFake } from '../fakes/scrobbler/server.ts';
import { envInt } from './report.ts';

process.env.NODE_ENV = 'test';
setLogLevel('silent');

const count = envInt('BENCH_SCROBBLES', 5000);
const artists = envInt('BENCH_ARTISTS', 50);

const fake = await startScrobblerFake();
const app = await startTestApp(fake.env);
try {
  fake.state.addUser('bench_fm', generatedHistory({ count, newestUts: 1_700_000_000, artists, albumsPerArtist: 4, tracksPerAlbum: 5 }));
  const { client } = await signedInAs(app, 'viewer');
  await linkThroughBrowser(client, fake, 'bench_fm');
  const started = performance.now();
  const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
  let done = await client.get(`/me/tasks/${start.body.task_id}`);
  while (done.body?.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 500));
    done = await client.get(`/me/tasks/${start.body.task_id}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const tracks = await app.ctx.db.selectFrom('canonical_docs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'track').executeTakeFirst();
  process.stdout.write(
    `${JSON.stringify({ status: done.body.status, error: done.body.error, imported: done.body.summary?.imported, canonical_tracks: Number(tracks?.n), seconds: Number(seconds.toFixed(1)), scrobbles_per_second: Math.round(count / seconds) })}\n`,
  );
} finally {
  await app.close();
  await fake.close();
  await dropTemplates();
}
