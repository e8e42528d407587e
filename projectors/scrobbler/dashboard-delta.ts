import type { Scrobble } from '../../shared/events/scrobbles.events.ts';
import { scrobblerArtistId, scrobblerItemId } from '../../shared/canonical/external-ids.ts';
import { dayOf, hourOf, monthOfDay, weekdayOfDay } from '../../shared/scrobbles/calendar.ts';
import type { DashboardScrobblesTable } from './dashboard.table.ts';

export type ScrobbleRow = DashboardScrobblesTable;
export type EntityKind = 'artist' | 'album' | 'track';
export const ENTITY_KINDS: readonly EntityKind[] = ['artist', 'album', 'track'];

export interface Owner {
  user_key: string;
  listener: string;
}

/** A scrobble counts under its canonical ids, or under the scrobbler's id shapes while it has none. */
export function entityKeys(s: Pick<Scrobble, 'artist' | 'album' | 'track' | 'canonical_artist_id' | 'canonical_album_id' | 'canonical_track_id'>) {
  return {
    artist_key: s.canonical_artist_id ?? `s:${scrobblerArtistId(s.artist)}`,
    album_key: s.album ? (s.canonical_album_id ?? `s:${scrobblerItemId(s.artist, s.album)}`) : null,
    track_key: s.canonical_track_id ?? `s:${scrobblerItemId(s.artist, s.track)}`,
  };
}

/** The ids a scrobble was stamped (or manually linked) with, kept apart from the keys merges move. */
export function recordedIds(s: Pick<Scrobble, 'canonical_artist_id' | 'canonical_album_id' | 'canonical_track_id'>) {
  return { recorded_artist_id: s.canonical_artist_id, recorded_album_id: s.canonical_album_id, recorded_track_id: s.canonical_track_id };
}

export function scrobbleRow(owner: Owner, s: Scrobble): ScrobbleRow {
  const day = dayOf(s.uts);
  return {
    ...owner,
    scrobble_id: s.scrobble_id,
    uts: s.uts,
    day,
    dow: weekdayOfDay(day),
    hour: hourOf(s.uts),
    artist: s.artist,
    album: s.album || null,
    track: s.track,
    ...entityKeys(s),
    ...recordedIds(s),
  };
}

export const keyOf = (row: ScrobbleRow, kind: EntityKind): string | null => row[`${kind}_key`];

export interface EntityChange extends Owner {
  kind: EntityKind;
  entity_key: string;
  plays: number;
  first_uts: number;
  last_uts: number;
  name: string;
  artist_name: string | null;
  artist_key: string | null;
}

const ownerKey = (o: Owner) => `${o.user_key}\u0000${o.listener}`;

/**
 * Play-count changes accumulated over a batch of scrobbles, one entry per aggregate row, so that a
 * page of 200 scrobbles becomes a handful of multi-row upserts. A removal is a negative count.
 */
export class Delta {
  readonly scrobbles = new Map<string, Owner & { plays: number }>();
  readonly days = new Map<string, Owner & { day: number; plays: number }>();
  readonly hours = new Map<string, Owner & { day: number; hour: number; plays: number }>();
  readonly heatmap = new Map<string, Owner & { dow: number; hour: number; plays: number }>();
  readonly entityDays = new Map<string, Owner & { kind: EntityKind; day: number; entity_key: string; plays: number }>();
  readonly entityMonths = new Map<string, Owner & { kind: EntityKind; entity_key: string; month: number; plays: number }>();
  readonly entities = new Map<string, EntityChange>();
  hasRemovals = false;

  /** Counts (sign 1) or uncounts (sign -1) a scrobble everywhere. */
  scrobble(row: ScrobbleRow, sign: 1 | -1): void {
    const o = ownerKey(row);
    const owner = { user_key: row.user_key, listener: row.listener };
    bump(this.scrobbles, o, () => ({ ...owner, plays: 0 }), sign);
    bump(this.days, `${o}|${row.day}`, () => ({ ...owner, day: row.day, plays: 0 }), sign);
    bump(this.hours, `${o}|${row.day}|${row.hour}`, () => ({ ...owner, day: row.day, hour: row.hour, plays: 0 }), sign);
    bump(this.heatmap, `${o}|${row.dow}|${row.hour}`, () => ({ ...owner, dow: row.dow, hour: row.hour, plays: 0 }), sign);
    for (const kind of ENTITY_KINDS) {
      const key = keyOf(row, kind);
      if (key) this.entity(row, kind, key, sign);
    }
    if (sign < 0) this.hasRemovals = true;
  }

  /** Moves one scrobble's play from one entity key to another (a manual canonical link). */
  entity(row: ScrobbleRow, kind: EntityKind, entityKey: string, sign: 1 | -1): void {
    const o = ownerKey(row);
    const owner = { user_key: row.user_key, listener: row.listener };
    bump(this.entityDays, `${o}|${kind}|${row.day}|${entityKey}`, () => ({ ...owner, kind, day: row.day, entity_key: entityKey, plays: 0 }), sign);
    const month = monthOfDay(row.day);
    bump(this.entityMonths, `${o}|${kind}|${entityKey}|${month}`, () => ({ ...owner, kind, entity_key: entityKey, month, plays: 0 }), sign);
    const entry = this.entities.get(`${o}|${kind}|${entityKey}`) ?? {
      ...owner,
      kind,
      entity_key: entityKey,
      plays: 0,
      // Neutral bounds: least/greatest with the stored row keep the stored values.
      first_uts: Number.MAX_SAFE_INTEGER,
      last_uts: 0,
      ...names(row, kind),
    };
    entry.plays += sign;
    if (sign > 0) {
      entry.first_uts = Math.min(entry.first_uts, row.uts);
      if (row.uts >= entry.last_uts) Object.assign(entry, { last_uts: row.uts, ...names(row, kind) });
    } else this.hasRemovals = true;
    this.entities.set(`${o}|${kind}|${entityKey}`, entry);
  }
}

/** What an entity shows of a play: its name as scrobbled and, for albums and tracks, its artist. */
export function names(row: ScrobbleRow, kind: EntityKind) {
  if (kind === 'artist') return { name: row.artist, artist_name: null, artist_key: null };
  return { name: kind === 'album' ? row.album! : row.track, artist_name: row.artist, artist_key: row.artist_key };
}

function bump<T extends { plays: number }>(map: Map<string, T>, key: string, fresh: () => T, by: number): void {
  const entry = map.get(key) ?? fresh();
  entry.plays += by;
  map.set(key, entry);
}
