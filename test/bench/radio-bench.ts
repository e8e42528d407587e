/**
 * `npm run bench:radio`: p95 of `POST /radio/sessions/{id}/advance` over a playable library of
 * BENCH_TRACKS (default 100,000) tracks on the embedded database, beside the p95 of a one-row GET
 * (`/radio/sessions/recent?limit=1`) in the same run. The library is written by SQL (artists of
 * 50 tracks in albums of 10, one of 50 moods per album), as the canonical projector leaves it.
 * BENCH_ADVANCES (default 300) advances are timed after 20 of warm-up, on a mood-seeded session.
 * It prints both ratios (advance over GET at p50 and p95) and the load average around the timing.
 */
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { setLogLevel } from '../../infra/logger.ts';
import { startTestApp } from '../support/api.ts';
import { signedInAs } from '../support/given.ts';
import { envInt, fmtMs, fmtRatio, percentile, table, timed } from './report.ts';

const TRACKS = envInt('BENCH_TRACKS', 100_000);
const ADVANCES = envInt('BENCH_ADVANCES', 300);
const WARM_UP = 20;
const note = (msg: string) => process.stderr.write(`  ${msg}\n`);
// The machine may be shared: the figures mean little without how busy it was.
const load = () => loadavg().map((n) => n.toFixed(2)).join(' / ');

setLogLevel('warn');
const app = await startTestApp();
try {
  const { ms: seedMs } = await timed(async () => {
    const albums = Math.ceil(TRACKS / 10);
    const artists = Math.ceil(albums / 5);
    const doc = sql`'[]'::jsonb, 'null'::jsonb, '{"mediaserver": true}'::jsonb, 1, '{}'::jsonb, false, now(), now()`;
    await sql`insert into canonical_docs (id, kind, name, name_folded, genres, secondary_types, audio_quality, sources, source_count, facts, tombstoned, created_at, updated_at)
      select 'ar' || g, 'artist', 'Artist ' || g, 'artist ' || g, '[]'::jsonb, ${doc} from generate_series(1, ${artists}) g`.execute(app.ctx.db);
    await sql`insert into canonical_docs (id, kind, name, name_folded, artist_id, artist_name, genres, tags, secondary_types, audio_quality, sources, source_count, facts, tombstoned, created_at, updated_at)
      select 'al' || g, 'album', 'Album ' || g, 'album ' || g, 'ar' || (1 + g / 5), 'Artist ' || (1 + g / 5), jsonb_build_array('genre ' || (g % 20)), jsonb_build_array('mood ' || (g % 50)), ${doc}
      from generate_series(1, ${albums}) g`.execute(app.ctx.db);
    await sql`insert into canonical_docs (id, kind, name, name_folded, artist_id, artist_name, album_id, album_title, disc, track_number, genres, secondary_types, audio_quality, sources, source_count, facts, tombstoned, created_at, updated_at)
      select 'tr' || g, 'track', 'Track ' || g, 'track ' || g, 'ar' || (1 + (g / 10) / 5), 'Artist ' || (1 + (g / 10) / 5), 'al' || (g / 10), 'Album ' || (g / 10), 1, g % 10 + 1, '[]'::jsonb, ${doc}
      from generate_series(10, ${TRACKS + 9}) g`.execute(app.ctx.db);
    await sql`analyze canonical_docs`.execute(app.ctx.db);
  });
  note(`seeded ${TRACKS.toLocaleString('en-US')} playable tracks in ${fmtMs(seedMs)} ms`);

  const { client } = await signedInAs(app, 'viewer');
  const { ms: startMs, value: started } = await timed(() => client.post('/radio/sessions', { seed_kind: 'mood', seed_id: 'mood 7' }));
  if (started.status !== 200) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
  const sessionId = started.body.session_id as string;
  note(`session started in ${fmtMs(startMs)} ms (pool ${started.body.pool_size}, kept ${started.body.pool_count})`);

  const loadBefore = load();
  const advances: number[] = [];
  const gets: number[] = [];
  for (let i = 0; i < WARM_UP + ADVANCES; i++) {
    const advance = await timed(() => client.post(`/radio/sessions/${sessionId}/advance`, { previous_outcome: i % 7 === 0 ? 'skipped' : 'played' }));
    if (advance.value.status !== 200) throw new Error(`advance answered ${advance.value.status}: ${JSON.stringify(advance.value.body)}`);
    const get = await timed(() => client.get('/radio/sessions/recent?limit=1'));
    if (get.value.status !== 200) throw new Error(`recent answered ${get.value.status}`);
    if (i >= WARM_UP) {
      advances.push(advance.ms);
      gets.push(get.ms);
    }
  }
  const row = (name: string, samples: number[]) => [name, String(samples.length), fmtMs(percentile(samples, 50)), fmtMs(percentile(samples, 95)), fmtMs(percentile(samples, 99))];
  console.log(`\nradio over ${TRACKS.toLocaleString('en-US')} playable tracks (embedded database)\n`);
  console.log(table(['request', 'n', 'p50 ms', 'p95 ms', 'p99 ms'], [row('POST /radio/sessions/{id}/advance', advances), row('GET /radio/sessions/recent?limit=1', gets)]));
  const p95 = percentile(advances, 95);
  const ratio = (p: number) => fmtRatio(percentile(advances, p) / percentile(gets, p));
  console.log(`\nadvance / one-row GET: p50 ${ratio(50)}, p95 ${ratio(95)}`);
  console.log(`load average (1 / 5 / 15 min): ${loadBefore} before the timed requests, ${load()} after`);
  console.log(`advance p95 ${fmtMs(p95)} ms: ${p95 <= 50 ? 'within' : 'OVER'} the 50 ms budget`);
} finally {
  await app.close();
}
