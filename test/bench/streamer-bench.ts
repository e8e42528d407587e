/**
 * `npm run bench:streamer`: in one run on the embedded default, the streamer sync against its fake
 * with an account of BENCH_STREAMER_TRACKS (default 10,000) saved tracks and BENCH_STREAMER_PLAYLISTS
 * (default 200) playlists of 25 of those tracks each:
 * - a full sync through POST /streamer/me/sync: items mirrored per second, beside the raw
 *   multi-row INSERT rate of the same rows into a plain table of the same database (the ceiling);
 * - a re-sync of the unchanged account: its time as a share of the full sync's (target ≤ 10%),
 *   and the domain events it appended (target 0).
 */
import { sql } from 'kysely';
import { setLogLevel } from '../../infra/logger.ts';
import { categoryOf } from '../../shared/streams.ts';
import { type StreamerFake, startStreamerFake } from '../fakes/streamer/server.ts';
import { type Json, playlist, savedAlbum, savedTrack, track } from '../fakes/streamer/state.ts';
import { type ApiClient, type TestApp, startTestApp } from '../support/api.ts';
import { signedInAs } from '../support/given.ts';
import { linkStreamer } from '../support/streamer.ts';
import { envInt, fmtMs, fmtRate, fmtRatio, table, timed } from './report.ts';

const TRACKS_PER_ALBUM = 10;
const ALBUMS_PER_ARTIST = 5;
const ITEMS_PER_PLAYLIST = 25;
const ACCOUNT = 'bench-account';

const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);

function seed(fake: StreamerFake, tracks: number, playlists: number) {
  const account = fake.state.addAccount(ACCOUNT, 'Bench');
  const all: Json[] = [];
  for (let i = 0; i < tracks; i++) {
    const album = Math.floor(i / TRACKS_PER_ALBUM);
    const artist = `Artist ${Math.floor(album / ALBUMS_PER_ARTIST)}`;
    all.push(track({ name: `Track ${i}`, artist, album: `Album ${album}`, isrc: `BENCH${String(i).padStart(7, '0')}` }));
  }
  const day = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');
  account.savedTracks = all.map((t, i) => savedTrack(t, day(i)));
  account.savedAlbums = Array.from({ length: Math.ceil(tracks / TRACKS_PER_ALBUM / 10) }, (_, a) =>
    savedAlbum({ name: `Album ${a * 10}`, artist: `Artist ${Math.floor((a * 10) / ALBUMS_PER_ARTIST)}`, upc: `0000${String(a).padStart(8, '0')}` }),
  );
  account.playlists = Array.from({ length: playlists }, (_, p) =>
    playlist(`Playlist ${p}`, p % 4 === 0 ? 'someone-else' : ACCOUNT, Array.from({ length: ITEMS_PER_PLAYLIST }, (_, k) => all[(p * 37 + k * 101) % all.length]!)),
  );
}

/** Starts a sync and polls its task until it ends; a failed sync stops the bench. */
async function sync(client: ApiClient): Promise<{ ms: number; summary: Record<string, number> }> {
  const { ms, value } = await timed(async () => {
    const start = await client.post('/streamer/me/sync');
    if (start.status !== 200) throw new Error(`sync answered ${start.status}: ${JSON.stringify(start.body)}`);
    let lastNote = Date.now();
    for (;;) {
      const res = await client.get(`/me/tasks/${start.body.task_id}`);
      if (res.status === 200 && res.body.status !== 'running') return res.body;
      if (Date.now() - lastNote > 10_000) {
        note(`sync: ${JSON.stringify(res.body?.progress ?? null)}`);
        lastNote = Date.now();
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  if (value.status !== 'completed') throw new Error(`sync ended ${value.status}: ${value.error}`);
  return { ms, summary: value.summary };
}

/** The ceiling: the same number of mirror-shaped rows in 500-row INSERTs into a plain table. */
async function rawInsertRate(app: TestApp, rows: number): Promise<number> {
  const db = app.ctx.db;
  await sql`create table bench_raw_streamer (username_key text, account_id text, track_id text, name text, artist_name text, album_name text, isrc text, duration_ms integer, canonical_track_id text, added_at timestamptz, primary key (username_key, account_id, track_id))`.execute(db);
  try {
    const { ms } = await timed(async () => {
      for (let i = 0; i < rows; i += 500) {
        const chunk = Array.from({ length: Math.min(500, rows - i) }, (_, k) => ({
          username_key: 'bench',
          account_id: ACCOUNT,
          track_id: `t${i + k}`,
          name: `Track ${i + k}`,
          artist_name: 'Artist',
          album_name: 'Album',
          isrc: `BENCH${i + k}`,
          duration_ms: 137040,
          canonical_track_id: `c${i + k}`,
          added_at: new Date(),
        }));
        await (db as any).insertInto('bench_raw_streamer').values(chunk).execute();
      }
    });
    return (rows * 1000) / ms;
  } finally {
    await sql`drop table bench_raw_streamer`.execute(db);
  }
}

async function main(): Promise<void> {
  const tracks = envInt('BENCH_STREAMER_TRACKS', 10_000);
  const playlists = envInt('BENCH_STREAMER_PLAYLISTS', 200);
  const fake = await startStreamerFake();
  seed(fake, tracks, playlists);
  note(`fake: ${tracks} saved tracks, ${playlists} playlists of ${ITEMS_PER_PLAYLIST}`);
  const app = await startTestApp(fake.env);
  try {
    const { client } = await signedInAs(app, 'viewer', 'bench');
    await linkStreamer(client, fake, ACCOUNT);
    const domainEvents = async () => (await app.ctx.store.readAll()).filter((e) => categoryOf(e.streamId) !== 'task').length;
    const full = await sync(client);
    const items = (s: Record<string, number>) => (s.saved_tracks ?? 0) + (s.saved_albums ?? 0) + (s.followed_artists ?? 0) + (s.playlists ?? 0) + (s.playlist_items ?? 0) + (s.recently_played ?? 0);
    note(`full sync: ${fmtMs(full.ms)} ms, ${JSON.stringify(full.summary)}`);
    const before = await domainEvents();
    fake.requests.splice(0);
    const again = await sync(client);
    const appended = (await domainEvents()) - before;
    const requests = fake.requests.length;
    note(`re-sync: ${fmtMs(again.ms)} ms, ${appended} domain events, ${requests} upstream requests`);
    const ceiling = await rawInsertRate(app, items(full.summary));
    const fullRate = (items(full.summary) * 1000) / full.ms;

    console.log(`# Streamer sync (${new Date().toISOString()}, embedded database)\n`);
    console.log(
      table(
        ['measurement', 'items', 'seconds', 'items/s', 'vs raw INSERT ceiling'],
        [
          ['raw INSERT, 500 rows/statement (ceiling)', String(items(full.summary)), '—', fmtRate(ceiling), '1 (ceiling)'],
          ['full sync (reconciled, mirrored)', String(items(full.summary)), (full.ms / 1000).toFixed(1), fmtRate(fullRate), fmtRatio(fullRate / ceiling)],
          ['re-sync, unchanged account', String(items(again.summary)), (again.ms / 1000).toFixed(1), fmtRate((items(again.summary) * 1000) / again.ms), '—'],
        ],
      ),
    );
    console.log(`\nRe-sync: ${fmtRatio(again.ms / full.ms)} of the full sync's time (target ≤ 0.1), ${appended} domain events appended (target 0), ${requests} upstream requests.`);
  } finally {
    await app.close();
    await fake.close();
  }
}

setLogLevel('silent');
await main();
