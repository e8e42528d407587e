/**
 * `npm run bench:enrichment`: the no-network drains at library scale. Seeds BENCH_ENRICH_TRACKS
 * tracks (default 1,000; 100,000 is the issue's size) through the real reconcile path, mirrors a
 * media server file for each (one MediaserverItemsSynced per 1,000 items), then times
 * `POST /admin/canonical/enrich/audio-quality?drain=true` and `…/tags?drain=true` to completion
 * (each item one read and at most one EntityEnriched), beside the raw multi-row INSERT rate of as
 * many event-shaped rows into a plain table of the same database (the ceiling), in the same run.
 */
import os from 'node:os';
import { type Kysely, sql } from 'kysely';
import { reconcileMany } from '../../command/canonical/reconciler.ts';
import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import { comparePositions, decodePosition } from '../../infra/eventstore/event-store.ts';
import { setLogLevel } from '../../infra/logger.ts';
import { unitOfWork } from '../../infra/projections/read-models.ts';
import type { MirrorItem } from '../../shared/events/mediaserver-library.events.ts';
import { mediaserverSectionStream } from '../../shared/streams.ts';
import { pollTask } from '../integration/tasks/test-tasks.ts';
import { type ApiClient, type TestApp, startTestApp } from '../support/api.ts';
import { signedInAdmin } from '../support/given.ts';
import { pollUntil } from '../support/scrobbler.ts';
import { rawRows } from './events.ts';
import { envInt, fmtRate, fmtRatio, table, timed } from './report.ts';
import { syntheticObservations } from './synthetic-observations.ts';

setLogLevel('silent');
const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);

const tracks = envInt('BENCH_ENRICH_TRACKS', 1_000);
const BATCH = 500;
const RAW_TABLE = 'bench_raw_enrichment';

/** The songs syntheticObservations gives: the mediaserver reports `t<s>` for each on server `bench`. */
async function seedLibrary(app: TestApp): Promise<number> {
  const observations = syntheticObservations(Math.ceil(tracks / 0.6));
  for (let i = 0; i < observations.length; i += BATCH) await reconcileMany(app.ctx, observations.slice(i, i + BATCH), 'bench');
  const songs = observations.filter((o) => o.source === 'mediaserver').length;
  note(`seed: ${observations.length} observations, ${songs} songs`);
  return songs;
}

async function mirrorFiles(app: TestApp, songs: number): Promise<void> {
  const at = new Date().toISOString();
  const item = (s: number): MirrorItem => ({
    rating_key: `t${s}`, kind: 'track', title: `Bench Song ${s}`, parent_rating_key: `b${Math.floor(s / 10)}`, grandparent_rating_key: `a${Math.floor(s / 100)}`,
    parent_title: null, grandparent_title: null, index: (s % 10) + 1, disc: 1, year: null, duration_ms: 180_000 + s, thumb: null, genres: [],
    added_at: 1, updated_at: 2, view_count: null, last_viewed_at: null, user_rating: null, canonical_id: null,
    media: s % 3 === 0
      ? { codec: 'FLAC', container: 'flac', bit_depth: 24, sampling_rate: 96_000, bitrate: 2_800, lossless: true, size: 10, part_id: s, part_key: `/library/parts/${s}/file` }
      : { codec: 'mp3', container: 'mp3', bit_depth: null, sampling_rate: 44_100, bitrate: 320, lossless: false, size: 10, part_id: s, part_key: `/library/parts/${s}/file` },
  });
  for (let s = 0; s < songs; s += 1000) {
    const items = Array.from({ length: Math.min(1000, songs - s) }, (_, k) => item(s + k));
    await unitOfWork(app.ctx.readModels, () =>
      app.ctx.store.append(mediaserverSectionStream('bench', '1'), [toNewEvent({ type: 'MediaserverItemsSynced', data: { server_id: 'bench', section_id: '1', items, at } } as never, { actor: null })], 'any'),
      { reactions: false },
    );
  }
}

/** The read models are projections, behind by a backlog this size: wait for every one to hold it. */
async function caughtUp(app: TestApp): Promise<void> {
  const head = await app.ctx.store.headPosition();
  await pollUntil(
    () => app.ctx.db.selectFrom('projection_checkpoints').select('position').execute(),
    (rows) => rows.every((r) => comparePositions(decodePosition(r.position), head) >= 0),
    60 * 60_000,
  );
}

async function drain(admin: ApiClient, path: string) {
  const { ms, value } = await timed(async () => {
    const res = await admin.post(`/admin/canonical/enrich/${path}?drain=true`);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return pollTask(admin, res.body.task_id, undefined, 6 * 60 * 60_000);
  });
  if (value.status !== 'completed') throw new Error(`${path} ended ${value.status}: ${JSON.stringify(value.summary)}`);
  const summary = value.summary as { processed: number; failed: number; outcomes: Record<string, number> };
  note(`${path}: ${summary.processed} items in ${(ms / 1000).toFixed(1)} s, ${JSON.stringify(summary.outcomes)}`);
  return { ms, processed: summary.processed, failed: summary.failed };
}

/** The ceiling: as many event-shaped rows as a drain appended, in 500-row INSERTs into a plain table. */
async function rawInsertRate(db: Kysely<any>, rows: number): Promise<number> {
  await sql`create table ${sql.table(RAW_TABLE)} (id bigint generated always as identity primary key, stream_id text not null, stream_revision integer not null,
    event_id uuid not null, event_type text not null, data jsonb not null, metadata jsonb not null)`.execute(db);
  try {
    const batches = Array.from({ length: Math.ceil(rows / BATCH) }, (_, i) => rawRows(Math.min(BATCH, rows - i * BATCH)));
    const { ms } = await timed(async () => {
      for (const chunk of batches) await db.insertInto(RAW_TABLE).values(chunk).execute();
    });
    return (rows * 1000) / ms;
  } finally {
    await sql`drop table ${sql.table(RAW_TABLE)}`.execute(db);
  }
}

const app = await startTestApp();
try {
  const admin = await signedInAdmin(app);
  const songs = await seedLibrary(app);
  await mirrorFiles(app, songs);
  await caughtUp(app);
  await sql`vacuum analyze`.execute(app.ctx.db);
  const counts = await app.ctx.db.selectFrom('canonical_docs').select(['kind', (eb) => eb.fn.countAll<number>().as('n')]).where('tombstoned', '=', false).groupBy('kind').orderBy('kind').execute();
  note(`library: ${counts.map((c) => `${c.n} ${c.kind}s`).join(', ')}; ${songs} mirrored files`);

  const quality = await drain(admin, 'audio-quality');
  const tags = await drain(admin, 'tags');
  const ceiling = await rawInsertRate(app.ctx.db as Kysely<any>, Math.max(quality.processed, tags.processed));

  const row = (label: string, r: { ms: number; processed: number; failed: number }) => {
    const perSecond = (r.processed * 1000) / r.ms;
    return [label, String(r.processed), String(r.failed), (r.ms / 1000).toFixed(1), fmtRate(perSecond), fmtRatio(perSecond / ceiling)];
  };
  console.log(`# Enrichment drains without network (${new Date().toISOString()})`);
  console.log(`node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim() ?? '?'}), embedded PGlite`);
  console.log(`library (BENCH_ENRICH_TRACKS=${tracks}): ${counts.map((c) => `${c.n} ${c.kind}s`).join(', ')}; ${songs} mirrored files\n`);
  console.log(
    table(
      ['measurement', 'items', 'failed', 'seconds', 'items/s', 'vs raw INSERT ceiling'],
      [
        [`raw INSERT, ${BATCH} event rows/statement (ceiling)`, String(Math.max(quality.processed, tags.processed)), '—', '—', fmtRate(ceiling), '1 (ceiling)'],
        row('audio-quality?drain=true', quality),
        row('tags?drain=true (albums and tracks)', tags),
      ],
      [false, true, true, true, true, true],
    ),
  );
  console.log(`\ntotal bench time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await app.close();
}
