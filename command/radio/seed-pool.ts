import type { AppContext } from '../../infra/context.ts';
import { similarArtists, similarTracks } from '../../infra/upstreams/scrobbler/similar.ts';
import { DomainError, NotFound, Unprocessable } from '../../shared/errors.ts';
import type { PoolEntry, SeedKind, WantedTrack } from '../../shared/events/radio.events.ts';
import { hashedId } from '../../shared/ids.ts';
import { foldName } from '../../shared/names.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { scoreOf } from './pick-next.ts';
import type { Seed } from './radio-session.decider.ts';
import * as lookups from './seed-pool.lookups.ts';
import type { CandidateRow } from './seed-pool.lookups.ts';

/** Below this many playable candidates a seed makes no radio (422). */
export const MIN_POOL = 10;
/** The pool a session keeps (the best by their ties to the seed): enough for hours, small enough to replay. */
export const POOL_CAP = 300;
const NEIGHBOURHOOD = 100;
const SIMILAR_ARTISTS = 30;
const PER_SIMILAR_ARTIST = 10;
const SIMILAR_TRACKS = 50;
/** Seed tracks asked for similar tracks when the seed is an artist or an album. */
const SIMILAR_TRACK_SEEDS = 2;
const SEED_TERMS = 5;
const TERM_TRACKS = POOL_CAP;

export interface SeededPool {
  seed: Seed;
  poolSize: number;
  pool: PoolEntry[];
  wanted: WantedTrack[];
}

interface SeedFacts {
  seed: Seed;
  artist: { id: string; name: string } | null;
  album: { id: string; title: string } | null;
  track: CandidateRow | null;
  terms: string[];
}

/**
 * The candidate pool of a seed over the playable library: the seed's own neighbourhood (its
 * artist, its album), what the scrobbler finds similar (artists and tracks, cached), and tracks
 * sharing its tags, moods or genres. Similar tracks the library cannot play become discoveries.
 */
export async function seedPool(ctx: AppContext, username: string, kind: SeedKind, id: string): Promise<SeededPool> {
  const facts = await resolveSeed(ctx, kind, id);
  const found = new Map<string, { row: CandidateRow; entry: PoolEntry }>();
  const add = (row: CandidateRow, tie: Partial<PoolEntry> = {}) => {
    if (row.id === facts.track?.id) return;
    const known = found.get(row.id)?.entry ?? blankEntry(row, facts.terms);
    found.set(row.id, { row, entry: { ...known, ...Object.fromEntries(Object.entries(tie).filter(([, v]) => v !== null)) } });
  };
  const own = facts.artist ? await lookups.tracksByArtists(ctx.db, [facts.artist.id], NEIGHBOURHOOD) : [];
  for (const row of own) add(row, { same_artist: facts.artist!.name });
  const onAlbum = facts.album ? await lookups.tracksOnAlbum(ctx.db, facts.album.id) : [];
  for (const row of onAlbum) add(row, { same_album: facts.album!.title, ...(row.artist_id === facts.artist?.id ? { same_artist: facts.artist!.name } : {}) });
  if (facts.terms.length === 0) facts.terms = topTerms(facts.track ? [facts.track] : onAlbum.length > 0 ? onAlbum : own);
  for (const f of found.values()) f.entry.shared = shared(f.row, facts.terms);
  if (facts.artist) await addSimilarArtists(ctx, facts.artist, add);
  const seedTracks = facts.track ? [facts.track] : (onAlbum.length > 0 ? onAlbum : own).slice(0, SIMILAR_TRACK_SEEDS);
  const wanted = await addSimilarTracks(ctx, username, seedTracks, add);
  for (const row of await lookups.tracksWithTerms(ctx.db, facts.terms, TERM_TRACKS)) add(row);
  const poolSize = found.size;
  if (poolSize < MIN_POOL) {
    throw new Unprocessable(`The ${kind} seed "${facts.seed.label}" has ${poolSize} playable track${poolSize === 1 ? '' : 's'} in its pool; a radio needs at least ${MIN_POOL}`);
  }
  return { seed: facts.seed, poolSize, pool: ranked([...found.values()].map((f) => f.entry), kind), wanted };
}

async function resolveSeed(ctx: AppContext, kind: SeedKind, id: string): Promise<SeedFacts> {
  if (kind === 'mood' || kind === 'genre') {
    const term = id.trim().toLowerCase();
    return { seed: { kind, id: term, label: term }, artist: null, album: null, track: null, terms: [term] };
  }
  const row = await lookups.seedRow(ctx.db, kind, id);
  if (!row || row.tombstoned) throw new NotFound(`Unknown canonical ${kind} ${id}`);
  const artist = kind === 'artist' ? { id: row.id, name: row.name ?? '' } : row.artist_id ? { id: row.artist_id, name: row.artist_name ?? '' } : null;
  const album = kind === 'album' ? { id: row.id, title: row.name ?? '' } : kind === 'track' && row.album_id ? { id: row.album_id, title: row.album_title ?? '' } : null;
  const label = kind === 'artist' ? (row.name ?? '') : [row.name, row.artist_name].filter(Boolean).join(' — ');
  const terms = kind === 'track' ? [...new Set([...row.tags, ...row.genres])].slice(0, SEED_TERMS) : [];
  const track: CandidateRow | null = kind === 'track' ? { id: row.id, name: row.name, artist_id: row.artist_id, artist_name: row.artist_name, album_id: row.album_id, album_title: row.album_title, terms } : null;
  return { seed: { kind, id: row.id, label }, artist, album, track, terms };
}

function blankEntry(row: CandidateRow, terms: string[]): PoolEntry {
  return { track_id: row.id, artist_id: row.artist_id, artist_name: row.artist_name, same_artist: null, same_album: null, similar_artist: null, similar_track: null, shared: shared(row, terms) };
}

const shared = (row: CandidateRow, terms: string[]) => terms.filter((t) => row.terms.includes(t));

/** The terms most of the seed's own tracks carry. */
function topTerms(rows: CandidateRow[]): string[] {
  const counts = new Map<string, number>();
  for (const row of rows) for (const term of row.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, SEED_TERMS).map(([term]) => term);
}

/** A scrobbler that is not configured or fails leaves the radio to the library's own ties. */
async function orNothing<T>(read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DomainError) return [];
    throw error;
  }
}

async function addSimilarArtists(ctx: AppContext, seedArtist: { id: string; name: string }, add: (row: CandidateRow, tie: Partial<PoolEntry>) => void): Promise<void> {
  const similar = await orNothing(() => similarArtists(ctx, seedArtist.name, SIMILAR_ARTISTS));
  const match = new Map(similar.map((a) => [foldName(a.name), a.match]));
  const artists = await lookups.artistsByFoldedName(ctx.db, [...match.keys()]);
  const matchOf = new Map([...artists].filter(([, a]) => a.id !== seedArtist.id).map(([folded, a]) => [a.id, match.get(folded)!]));
  for (const row of await lookups.tracksByArtists(ctx.db, [...matchOf.keys()], PER_SIMILAR_ARTIST)) {
    add(row, { similar_artist: { of: seedArtist.name, match: matchOf.get(row.artist_id!)! } });
  }
}

/** Similar tracks the library can play join the pool; the others are what the radio wanted. */
async function addSimilarTracks(ctx: AppContext, username: string, seeds: CandidateRow[], add: (row: CandidateRow, tie: Partial<PoolEntry>) => void): Promise<WantedTrack[]> {
  const wanted = new Map<string, WantedTrack>();
  for (const seed of seeds) {
    if (!seed.name || !seed.artist_name) continue;
    const similar = await orNothing(() => similarTracks(ctx, seed.artist_name!, seed.name!, SIMILAR_TRACKS));
    const artists = await lookups.artistsByFoldedName(ctx.db, [...new Set(similar.map((s) => foldName(s.artist)))]);
    const known = await lookups.tracksByFoldedTitle(ctx.db, [...new Set(similar.map((s) => foldName(s.name)))], [...artists.values()].map((a) => a.id));
    const playable = new Map((await lookups.playableTracksById(ctx.db, known.filter((k) => k.playable).map((k) => k.id))).map((r) => [r.id, r]));
    for (const s of similar) {
      const artistId = artists.get(foldName(s.artist))?.id;
      const here = known.find((k) => k.artist_id === artistId && k.name_folded === foldName(s.name));
      const row = here && playable.get(here.id);
      if (row) {
        add(row, { similar_track: { of: seed.name, match: s.match } });
        continue;
      }
      const discovery_id = hashedId('radio-discovery', usernameKey(username), foldName(s.artist), foldName(s.name));
      const before = wanted.get(discovery_id);
      if (before && before.similarity >= s.match) continue;
      wanted.set(discovery_id, { discovery_id, artist_name: s.artist, title: s.name, similarity: s.match, status: here ? 'not_playable' : 'not_in_library', canonical_track_id: here?.id ?? null });
    }
  }
  return [...wanted.values()];
}

/** The pool by its ties to the seed alone (feedback and recency move picks, not membership), capped. */
function ranked(entries: PoolEntry[], kind: SeedKind): PoolEntry[] {
  const none = { tracks: new Map(), artists: new Map() };
  const at = { lastPlayed: new Map<string, number>(), now: new Date(0) };
  return entries
    .map((entry) => ({ entry, score: scoreOf(entry, kind, none, at) }))
    .sort((a, b) => b.score - a.score || (a.entry.track_id < b.entry.track_id ? -1 : 1))
    .slice(0, POOL_CAP)
    .map((r) => r.entry);
}
