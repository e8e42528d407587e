/**
 * `npm run bench:mediaserver`: in one run on the embedded default, the media server slice against
 * its fake with a generated music section of BENCH_TRACKS (default 100,000) tracks in albums of 10:
 * - a full library sync through the task endpoint: tracks per second;
 * - a quick resync after 1% of the albums changed: its time, and the album track lists it fetched
 *   (counted in the fake's recorded requests) beside the full sync's;
 * - the audio proxy's throughput beside a direct read of the fake: BENCH_AUDIO_READS (default 40)
 *   whole reads and as many ranged reads of a 4 MiB part through each path.
 */
import { setLogLevel } from '../../infra/logger.ts';
import { type MediaserverFake, mediaserverEnv, startMediaserverFake } from '../fakes/mediaserver/server.ts';
import type { ApiClient, TestApp } from '../support/api.ts';
import { startTestApp } from '../support/api.ts';
import { signedInAdmin } from '../support/given.ts';
import { envInt, fmtMs, fmtRate, fmtRatio, table, timed } from './report.ts';

const MIB = 1024 * 1024;
const SECTION = '5';
const TRACKS_PER_ALBUM = 10;
const ALBUMS_PER_ARTIST = 10;

const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);

interface SyncOutcome {
  ms: number;
  summary: Record<string, unknown>;
  /** Album track lists the service asked the fake for. */
  trackLists: number;
}

/** Starts a sync of the bench section and polls the task until it ends; a failed sync stops the bench. */
async function sync(admin: ApiClient, fake: MediaserverFake, quick: boolean): Promise<SyncOutcome> {
  fake.clearRequests();
  const { ms, value: task } = await timed(async () => {
    const res = await admin.post(`/mediaserver/admin/libraries/${SECTION}/sync?quick=${quick}`);
    if (res.status !== 202 && res.status !== 200) throw new Error(`sync answered ${res.status}: ${JSON.stringify(res.body)}`);
    return waitFor(admin, res.body.task_id as string, quick ? 'quick' : 'full');
  });
  if (task.status !== 'completed') throw new Error(`sync ended ${task.status}: ${JSON.stringify(task.error ?? task)}`);
  const trackLists = fake.requestsTo('/library/metadata/').filter((r) => r.path.endsWith('/children')).length;
  return { ms, summary: (task.summary ?? {}) as Record<string, unknown>, trackLists };
}

/** Polls sparingly: a long sync should not share its event loop with a busy poller. */
async function waitFor(admin: ApiClient, taskId: string, label: string): Promise<Record<string, any>> {
  let lastNote = Date.now();
  for (;;) {
    const res = await admin.get(`/admin/task-history/${taskId}`);
    if (res.status === 200 && res.body.status !== 'running' && res.body.status !== 'pending') return res.body;
    if (Date.now() - lastNote > 10_000) {
      note(`${label} sync: ${JSON.stringify(res.body?.progress ?? null)}`);
      lastNote = Date.now();
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Changes 1% of the albums as a rescan would: one track renamed, which bumps its album's updatedAt. */
function changeOnePercent(fake: MediaserverFake, albums: string[]): number {
  const step = 100;
  let changed = 0;
  for (let i = 0; i < albums.length; i += step) {
    const first = fake.library.childrenOf(albums[i]!)[0];
    if (!first) continue;
    fake.library.update(String(first.ratingKey), { title: `${String(first.title)} (remastered)` });
    changed += 1;
  }
  return changed;
}

async function readBody(url: string, headers: Record<string, string>, expected: number): Promise<number> {
  const res = await fetch(url, { headers });
  if (res.status !== expected) throw new Error(`${url} answered ${res.status}, expected ${expected}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return bytes;
}

/** MiB/s over `reads` sequential reads, after one warm-up read. */
async function throughput(reads: number, read: (i: number) => Promise<number>): Promise<number> {
  await read(0);
  const { ms, value: bytes } = await timed(async () => {
    let total = 0;
    for (let i = 0; i < reads; i++) total += await read(i);
    return total;
  });
  return bytes / MIB / (ms / 1000);
}

interface ReadPath {
  url: string;
  headers: Record<string, string>;
}

/** Ranged reads walk the part in 256 KiB windows, as a player seeking or buffering would. */
const rangeOf = (i: number, size: number) => {
  const window = 256 * 1024;
  const start = (i * window) % Math.max(1, size - window);
  return `bytes=${start}-${start + window - 1}`;
};

async function audioProxy(app: TestApp, admin: ApiClient, fake: MediaserverFake, track: string, reads: number): Promise<string[][]> {
  const id = (await admin.get(`/tracks/resolve?mediaserver_server=${fake.identity.machineIdentifier}&mediaserver_rating_key=${track}`)).body.id as string;
  if (!id) throw new Error(`the synced bench track ${track} has no canonical id`);
  const part = ((fake.library.get(track).Media as any[])[0].Part as any[])[0] as { key: string; size: number };
  const direct: ReadPath = { url: fake.url + part.key, headers: { 'x-plex-token': fake.adminToken } };
  const proxied: ReadPath = { url: `${app.url}/mediaserver/play/track/${id}`, headers: { cookie: `media_session=${admin.cookie('media_session')}` } };
  const rows: string[][] = [];
  for (const [kind, ranged] of [['whole', false], ['256 KiB range', true]] as const) {
    const read = (path: ReadPath) => (i: number) =>
      readBody(path.url, ranged ? { ...path.headers, range: rangeOf(i, part.size) } : path.headers, ranged ? 206 : 200);
    const d = await throughput(reads, read(direct));
    const p = await throughput(reads, read(proxied));
    note(`audio ${kind}: direct ${d.toFixed(1)} MiB/s, proxied ${p.toFixed(1)} MiB/s`);
    rows.push([`${kind} reads, direct from the fake`, d.toFixed(1), fmtRatio(1)]);
    rows.push([`${kind} reads, through /mediaserver/play/track`, p.toFixed(1), fmtRatio(p / d)]);
  }
  return rows;
}

async function main(): Promise<void> {
  const tracks = envInt('BENCH_TRACKS', 100_000);
  const reads = envInt('BENCH_AUDIO_READS', 40);
  const artists = Math.max(1, Math.ceil(tracks / (ALBUMS_PER_ARTIST * TRACKS_PER_ALBUM)));
  const fake = await startMediaserverFake({ fixtures: false });
  const albums = fake.library.generate({ artists, albumsPerArtist: ALBUMS_PER_ARTIST, tracksPerAlbum: TRACKS_PER_ALBUM, lossyEvery: 10, section: SECTION });
  const big = fake.library.addTrack(albums[0]!, { title: 'Bench Big File', index: TRACKS_PER_ALBUM + 1, size: 4 * MIB });
  note(`fake: ${artists} artists, ${albums.length} albums, ${artists * ALBUMS_PER_ARTIST * TRACKS_PER_ALBUM + 1} tracks`);
  const app = await startTestApp(mediaserverEnv(fake));
  try {
    const admin = await signedInAdmin(app);
    const full = await sync(admin, fake, false);
    note(`full sync: ${fmtMs(full.ms)} ms, ${JSON.stringify(full.summary)}`);
    const changed = changeOnePercent(fake, albums);
    const quick = await sync(admin, fake, true);
    note(`quick sync after ${changed} changed albums: ${fmtMs(quick.ms)} ms, ${JSON.stringify(quick.summary)}`);
    const audio = await audioProxy(app, admin, fake, big, reads);

    const n = (o: SyncOutcome, k: string) => Number(o.summary[k] ?? 0);
    console.log(`# Media server sync and audio proxy (${new Date().toISOString()}, embedded database)\n`);
    console.log(
      table(
        ['sync', 'seconds', 'artists', 'albums', 'tracks', 'tracks/s', 'track lists fetched'],
        [
          ['full', (full.ms / 1000).toFixed(1), String(n(full, 'artists')), String(n(full, 'albums')), String(n(full, 'tracks')), fmtRate((n(full, 'tracks') * 1000) / full.ms), String(full.trackLists)],
          [`quick, ${changed} albums changed`, (quick.ms / 1000).toFixed(1), String(n(quick, 'artists')), String(n(quick, 'albums')), String(n(quick, 'tracks')), '—', String(quick.trackLists)],
        ],
      ),
    );
    console.log(`\nQuick resync: ${fmtRatio(quick.ms / full.ms)} of the full sync's time, ${quick.trackLists} of ${full.trackLists} album track lists fetched.\n`);
    console.log(table(['audio (4 MiB part, ' + reads + ' sequential reads)', 'MiB/s', 'vs direct'], audio));
  } finally {
    await app.close();
    await fake.close();
  }
}

setLogLevel('silent');
await main();
