import type { AppContext } from '../../infra/context.ts';
import type { StreamAppend } from '../../infra/eventstore/event-store.ts';
import type { Scrobble } from '../../shared/events/scrobbles.events.ts';
import { hashedId } from '../../shared/ids.ts';
import { scrobblesStream } from '../../shared/streams.ts';
import { now } from './report.ts';

const PAGE = 200;
const PAGES_PER_APPEND = 25;
const DAY = 86_400;

/**
 * A synthetic listening history shaped like a real one: spread over up to 15 years at about 180
 * scrobbles a day, a long tail of artists (a few played a lot), most scrobbles stamped with
 * canonical ids and some not. Deterministic for a given size.
 */
export function historyShape(total: number) {
  const days = Math.min(15 * 365, Math.max(7, Math.ceil(total / 180)));
  const artists = Math.min(5000, Math.max(20, Math.round(total / 200)));
  return { days, artists };
}

function* scrobbles(username: string, total: number): Generator<Scrobble> {
  const { days, artists } = historyShape(total);
  const end = Math.floor(Date.now() / 1000) - 3600;
  const step = (days * DAY) / total;
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let k = 0; k < total; k++) {
    const uts = Math.floor(end - days * DAY + k * step);
    const a = Math.floor(artists * random() ** 3);
    const t = Math.floor(12 * random() ** 2);
    const stamped = random() < 0.9;
    const artist = `Artist ${a}`;
    const track = `Track ${a}-${t}`;
    yield {
      scrobble_id: hashedId(username, uts, artist, track),
      uts,
      artist,
      album: `Album ${a}-${t % 3}`,
      track,
      artist_mbid: null,
      album_mbid: null,
      track_mbid: null,
      canonical_artist_id: stamped ? `ART${a}` : null,
      canonical_album_id: stamped ? `ALB${a}-${t % 3}` : null,
      canonical_track_id: stamped ? `TRK${a}-${t}` : null,
    };
  }
}

/** Appends the history page by page with the projector live, waiting for it after each append. */
export async function importHistory(ctx: AppContext, username: string, total: number, note: (msg: string) => void) {
  const started = now();
  const at = new Date().toISOString();
  let page: Scrobble[] = [];
  let events: StreamAppend['events'] = [];
  let done = 0;
  const flush = async () => {
    if (page.length > 0) events.push({ type: 'ScrobblesImported', data: { username, scrobbler_username: username, task_id: null, page: null, total_pages: null, scrobbles: page, at } });
    page = [];
    if (events.length === 0) return;
    const result = await ctx.store.appendMany([{ streamId: scrobblesStream(username), events, expectedRevision: 'any' }]);
    events = [];
    if (!(await ctx.projections!.waiters.waitFor(result.position, 10 * 60_000))) throw new Error('projections did not catch up');
  };
  for (const s of scrobbles(username, total)) {
    page.push(s);
    if (page.length < PAGE) continue;
    events.push({ type: 'ScrobblesImported', data: { username, scrobbler_username: username, task_id: null, page: null, total_pages: null, scrobbles: page, at } });
    page = [];
    done += PAGE;
    if (events.length >= PAGES_PER_APPEND) await flush();
    if (done % 50_000 === 0) note(`${username}: ${done} scrobbles projected`);
  }
  await flush();
  const ms = now() - started;
  return { rate: (total * 1000) / ms, ...historyShape(total) };
}
