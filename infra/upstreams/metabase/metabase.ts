import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { UpstreamNotFound } from '../../../shared/errors.ts';
import { type CoverArtKind, coverArtClient } from '../coverart/client.ts';
import { type CachedAnswer, TTL, cachedPayload, readThrough } from './cache.ts';
import { metabaseClient } from './client.ts';
import { type EntityKind, type Searchable, barcodeVariants } from './musicbrainz.ts';
import { IsrcAnswer, type MetabaseObject } from './schemas.ts';

export interface Options {
  refresh?: boolean;
}

/**
 * The metabase through its raw-payload cache: every caller (the proxy, the drains, the artist
 * pages) asks here, so a payload fetched once serves them all and the pacing is shared.
 */
export function metabase(deps: { db: Kysely<Database>; config: Config }) {
  const { db } = deps;
  const client = metabaseClient(deps.config);
  const found = (payload: unknown) => ({ found: true, payload });

  return {
    /** An entity (404 when the metabase has no such id: never cached). */
    async lookup(kind: EntityKind, mbid: string, options: Options = {}): Promise<MetabaseObject> {
      const id = mbid.toLowerCase();
      const answer = await readThrough(db, kind, id, TTL.entity, async () => found(await client.lookup(kind, id)), options.refresh);
      return answer.payload as MetabaseObject;
    },

    /** The cached entity, if any, without a request. */
    cached: async (kind: EntityKind, mbid: string) => (await cachedPayload(db, kind, mbid.toLowerCase())) as MetabaseObject | undefined,

    search: async (entity: Searchable, query: string, limit: number, offset: number, options: Options = {}) =>
      (await readThrough(db, `search:${entity}`, JSON.stringify([query, limit, offset]), TTL.search, async () => found(await client.search(entity, query, limit, offset)), options.refresh))
        .payload as MetabaseObject,

    releaseGroupsOf: async (artist: string, limit: number, offset: number, options: Options = {}) =>
      (await readThrough(db, 'browse:release-group', JSON.stringify([artist.toLowerCase(), limit, offset]), TTL.browse, async () => found(await client.releaseGroupsOf(artist.toLowerCase(), limit, offset)), options.refresh))
        .payload as MetabaseObject,

    /** The releases carrying exactly this barcode (or its UPC/EAN twin); a miss is cached too. */
    async releasesByBarcode(upc: string, options: Options = {}): Promise<{ releases: MetabaseObject[]; answer: CachedAnswer }> {
      // The barcode as given first; its UPC/EAN twin only when the first finds nothing.
      const answer = await readThrough(db, 'barcode', upc, TTL.barcode, async () => {
        let result: MetabaseObject = {};
        for (const barcode of barcodeVariants(upc)) {
          result = await client.releasesByBarcode(barcode);
          if (exactReleases(result, upc).length > 0) return { found: true, payload: result };
        }
        return { found: false, payload: result };
      }, options.refresh);
      return { releases: exactReleases(answer.payload as MetabaseObject, upc), answer };
    },

    /** The recordings of an ISRC; null when the metabase knows none (a miss, cached). */
    async recordingsByIsrc(isrc: string): Promise<IsrcAnswer | null> {
      const answer = await readThrough(db, 'isrc', isrc.toUpperCase(), TTL.isrc, async () => {
        try {
          return found(await client.recordingsByIsrc(isrc.toUpperCase()));
        } catch (error) {
          if (error instanceof UpstreamNotFound) return { found: false, payload: {} };
          throw error;
        }
      });
      return answer.found ? IsrcAnswer.parse(answer.payload) : null;
    },

    /** The cover art archive's image list; 404 when it has no art (a miss, cached). */
    async coverArt(kind: CoverArtKind, mbid: string, options: Options = {}): Promise<MetabaseObject> {
      const id = mbid.toLowerCase();
      const answer = await readThrough(db, `cover-art:${kind}`, id, TTL.coverArt, async () => {
        const images = await coverArtClient(deps.config).images(kind, id);
        return images ? found(images) : { found: false, payload: {} };
      }, options.refresh);
      if (!answer.found) throw new UpstreamNotFound('coverart', `no cover art for ${kind} ${id}`);
      return answer.payload as MetabaseObject;
    },

    ping: () => client.ping(),
  };
}

export type Metabase = ReturnType<typeof metabase>;

/** A barcode search is a text search: keep only the releases whose barcode is the one asked. */
function exactReleases(answer: MetabaseObject, upc: string): MetabaseObject[] {
  const wanted = new Set(barcodeVariants(upc));
  const releases = Array.isArray(answer.releases) ? (answer.releases as MetabaseObject[]) : [];
  return releases.filter((r) => typeof r.barcode === 'string' && wanted.has(r.barcode));
}
