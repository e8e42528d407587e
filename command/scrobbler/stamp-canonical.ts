import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import type { ScrobbleRow } from '../../infra/upstreams/scrobbler/schemas.ts';
import { scrobblerArtistId, scrobblerItemId } from '../../shared/canonical/external-ids.ts';
import type { Facts, Kind } from '../../shared/events/canonical.events.ts';
import type { Observation } from '../canonical/observation.ts';
import { reconcileMany } from '../canonical/reconciler.ts';
import { type CanonicalIds, NO_IDS } from './canonical-ids.ts';
import { oneByOneStamper } from './stamp-one-by-one.ts';

const LOOKUP_CHUNK = 1000;
/**
 * Observations per reconcile batch: a page's new names at once. Each batch waits for the canonical
 * read models before and after it, which is most of its time; its appends are cut into short
 * holds of the embedded connection by the reconciler itself.
 */
const RECONCILE_CHUNK = 1000;
const refKey = (kind: Kind, externalId: string) => `${kind}\u0000${externalId}`;
const named = (row: ScrobbleRow) => row.artist.trim() !== '' && row.track.trim() !== '';
const mbid = (value: string | null) => (value ? { mbid: value } : {});

/** What an album or track belongs to: its ref, its name in this scrobble, its observation when new in the page. */
interface Owner {
  ref: string;
  name: string;
  observed: Observation | undefined;
}

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

  /** Observed when new in the page (the batch reconciles it first), else given by id; named as the scrobble spells it. */
  function withOwners(facts: Facts & { name: string }, owners: { artist?: Owner; album?: Owner }): Pick<Observation, 'facts' | 'artist' | 'album'> {
    const out: Pick<Observation, 'facts' | 'artist' | 'album'> = { facts: { ...facts } };
    if (owners.artist) {
      out.facts.artist_name = owners.artist.name;
      if (owners.artist.observed) out.artist = owners.artist.observed;
      else out.facts.artist_id = known.get(refKey('artist', owners.artist.ref))!;
    }
    if (owners.album) {
      out.facts.album_title = owners.album.name;
      if (owners.album.observed) out.album = owners.album.observed;
      else out.facts.album_id = known.get(refKey('album', owners.album.ref))!;
    }
    return out;
  }

  /** One observation per ref the canonical layer lacks, in the order the page's scrobbles name them. */
  function observationsFor(rows: ScrobbleRow[]): Map<string, Observation> {
    const fresh = new Map<string, Observation>();
    const add = (kind: Kind, externalId: string, facts: Facts & { name: string }, owners: { artist?: Owner; album?: Owner } = {}) => {
      const key = refKey(kind, externalId);
      if (!known.has(key) && !fresh.has(key)) fresh.set(key, { source: 'scrobbler', kind, external_id: externalId, ...withOwners(facts, owners) });
      return fresh.get(key);
    };
    for (const row of rows) {
      const refs = refsOf(row);
      const artist: Owner = { ref: refs.artist, name: row.artist, observed: add('artist', refs.artist, { name: row.artist, ...mbid(row.artist_mbid) }) };
      const album: Owner | undefined = refs.album
        ? { ref: refs.album, name: row.album!, observed: add('album', refs.album, { name: row.album!, ...mbid(row.album_mbid) }, { artist }) }
        : undefined;
      add('track', refs.track, { name: row.track, ...mbid(row.track_mbid) }, { artist, album });
    }
    return fresh;
  }

  return async function stampPage(rows: ScrobbleRow[]): Promise<CanonicalIds[]> {
    const stamped = rows.filter(named);
    const refs = stamped.map(refsOf);
    await lookUp('artist', refs.map((r) => r.artist));
    await lookUp('album', refs.flatMap((r) => (r.album ? [r.album] : [])));
    await lookUp('track', refs.map((r) => r.track));
    const fresh = observationsFor(stamped);
    const keys = [...fresh.keys()];
    try {
      const observations = [...fresh.values()];
      for (let i = 0; i < observations.length; i += RECONCILE_CHUNK) {
        const ids = await reconcileMany(ctx, observations.slice(i, i + RECONCILE_CHUNK), actor);
        keys.slice(i, i + RECONCILE_CHUNK).forEach((key, j) => known.set(key, ids[j]!));
      }
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
