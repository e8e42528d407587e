import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import type { ScrobbleRow } from '../../infra/upstreams/scrobbler/schemas.ts';
import { scrobblerArtistId, scrobblerItemId } from '../../shared/canonical/external-ids.ts';
import type { Facts, Kind } from '../../shared/events/canonical.events.ts';
import { type Observation, reconcileMany } from '../canonical/reconciler.ts';
import { oneByOneStamper } from './stamp-one-by-one.ts';

export interface CanonicalIds {
  canonical_artist_id: string | null;
  canonical_album_id: string | null;
  canonical_track_id: string | null;
}

export const NO_IDS: CanonicalIds = { canonical_artist_id: null, canonical_album_id: null, canonical_track_id: null };

const LOOKUP_CHUNK = 1000;
const refKey = (kind: Kind, externalId: string) => `${kind}\u0000${externalId}`;
const named = (row: ScrobbleRow) => row.artist.trim() !== '' && row.track.trim() !== '';
const mbid = (value: string | null) => (value ? { mbid: value } : {});

/** The scrobbler refs a scrobble names, in the order they are observed: artist, album, track. */
function refsOf(row: ScrobbleRow) {
  return {
    artist: scrobblerArtistId(row.artist),
    album: row.album ? scrobblerItemId(row.artist, row.album) : null,
    track: scrobblerItemId(row.artist, row.track),
  };
}

/**
 * Observes what a page of scrobbles names into the canonical layer, with the scrobbler's id shapes,
 * and answers the canonical ids to stamp each scrobble with. A history names the same few thousand
 * artists, albums and tracks over and over: a ref the canonical layer already holds (looked up once
 * per page, remembered across pages) is not observed again, and the new ones of a page are
 * reconciled in one batch, deduplicated, in the order a one-by-one pass would meet them (same ids,
 * same evidence). If the batch fails, the page goes one by one so that one bad name costs only
 * its own ids.
 */
export function canonicalStamper(ctx: AppContext, actor: string | null) {
  const known = new Map<string, string>();
  const fallback = oneByOneStamper(ctx, actor);

  async function lookUp(kind: Kind, externalIds: string[]): Promise<void> {
    const missing = [...new Set(externalIds)].filter((id) => !known.has(refKey(kind, id)));
    for (let i = 0; i < missing.length; i += LOOKUP_CHUNK) {
      const rows = await ctx.db
        .selectFrom('external_refs')
        .select(['external_id', 'entity_id'])
        .where('kind', '=', kind)
        .where('source', '=', 'scrobbler')
        .where('external_id', 'in', missing.slice(i, i + LOOKUP_CHUNK))
        .execute();
      for (const r of rows) known.set(refKey(kind, r.external_id), r.entity_id);
    }
  }

  /** One observation per ref the canonical layer lacks; what it belongs to is nested when new too. */
  function observationsFor(rows: ScrobbleRow[]): { keys: string[]; observations: Observation[] } {
    const fresh = new Map<string, Observation>();
    const keys: string[] = [];
    const add = (key: string, build: () => Observation) => {
      if (known.has(key) || fresh.has(key)) return fresh.get(key);
      const observation = build();
      fresh.set(key, observation);
      keys.push(key);
      return observation;
    };
    for (const row of rows) {
      const refs = refsOf(row);
      const artist = add(refKey('artist', refs.artist), () => ({ source: 'scrobbler', kind: 'artist', external_id: refs.artist, facts: { name: row.artist, ...mbid(row.artist_mbid) } }));
      const owner = (facts: Facts & { name: string }): Pick<Observation, 'facts' | 'artist'> =>
        // The artist's name as this scrobble spells it (the artist's ref is case-folded).
        artist ? { facts: { ...facts, artist_name: row.artist }, artist } : { facts: { name: facts.name, artist_id: known.get(refKey('artist', refs.artist))!, artist_name: row.artist, ...mbid(facts.mbid ?? null) } };
      const album = refs.album
        ? add(refKey('album', refs.album), () => ({ source: 'scrobbler', kind: 'album', external_id: refs.album!, ...owner({ name: row.album!, ...mbid(row.album_mbid) }) }))
        : undefined;
      add(refKey('track', refs.track), () => {
        const base = owner({ name: row.track, ...mbid(row.track_mbid) });
        if (!refs.album) return { source: 'scrobbler', kind: 'track', external_id: refs.track, ...base };
        if (album) return { source: 'scrobbler', kind: 'track', external_id: refs.track, ...base, album };
        const { mbid: trackMbid, ...rest } = base.facts;
        const facts = { ...rest, album_id: known.get(refKey('album', refs.album))!, album_title: row.album!, ...mbid(trackMbid ?? null) };
        return { source: 'scrobbler', kind: 'track', external_id: refs.track, ...base, facts };
      });
    }
    return { keys, observations: keys.map((k) => fresh.get(k)!) };
  }

  return async function stampPage(rows: ScrobbleRow[]): Promise<CanonicalIds[]> {
    const stamped = rows.filter(named);
    const refs = stamped.map(refsOf);
    await lookUp('artist', refs.map((r) => r.artist));
    await lookUp('album', refs.flatMap((r) => (r.album ? [r.album] : [])));
    await lookUp('track', refs.map((r) => r.track));
    const { keys, observations } = observationsFor(stamped);
    try {
      const ids = await reconcileMany(ctx, observations, actor);
      keys.forEach((key, i) => known.set(key, ids[i]!));
    } catch (error) {
      log.warn('scrobbler: a page could not be reconciled at once, going one by one', { error: String(error) });
      const one: CanonicalIds[] = [];
      for (const row of rows) one.push(await fallback(row));
      return one;
    }
    return rows.map((row) => {
      if (!named(row)) return NO_IDS;
      const r = refsOf(row);
      return {
        canonical_artist_id: known.get(refKey('artist', r.artist)) ?? null,
        canonical_album_id: r.album ? (known.get(refKey('album', r.album)) ?? null) : null,
        canonical_track_id: known.get(refKey('track', r.track)) ?? null,
      };
    });
  };
}

export type CanonicalStamper = ReturnType<typeof canonicalStamper>;
