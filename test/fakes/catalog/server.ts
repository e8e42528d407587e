import { type Fake, type RecordedRequest, startFake } from '../harness.ts';
import { type Failure, catalogRoutes } from './routes.ts';
import { addAlbum, addArtist, addTrack, emptyState, type Json, loadFixtures } from './store.ts';

export type { Failure } from './routes.ts';
export type { Json } from './store.ts';

/**
 * A loopback catalog provider speaking the real wire format. Tests add what it knows, queue
 * failures, and read `requests` to assert on what the service asked.
 */
export interface CatalogFake extends Fake {
  /** Adds an artist payload (`artist.27.json` shape). */
  addArtist(artist: Json): void;
  /** Adds an album payload and its tracks (full or tracklist rows; their `album` is filled in). */
  addAlbum(album: Json, tracks?: Json[]): void;
  /** Adds a full track payload (`track.3135556.json` shape). */
  addTrack(track: Json): void;
  /** The artists `/artist/{id}/related` lists for an artist. */
  setRelated(artistId: number, relatedIds: number[]): void;
  /** The next requests, one per entry, answer these failures instead. */
  failNext(...failures: Failure[]): void;
  /** Requests whose path starts with the prefix (all when omitted). */
  requestsTo(prefix?: string): RecordedRequest[];
  /** Forgets the recorded requests, to assert on what one step sends. */
  clearRequests(): void;
}

export interface CatalogFakeOptions {
  /** Start with the recorded payloads (Daft Punk's Discovery, Die With A Smile). Default true. */
  fixtures?: boolean;
  /** The largest page served whatever `limit` asks, to exercise paging with few items. */
  maxLimit?: number;
}

export async function startCatalogFake(options: CatalogFakeOptions = {}): Promise<CatalogFake> {
  const state = emptyState();
  if (options.fixtures ?? true) loadFixtures(state);
  const failures: Failure[] = [];
  const fake = await startFake(catalogRoutes(state, failures, options.maxLimit));
  return {
    ...fake,
    addArtist: (artist) => addArtist(state, artist),
    addAlbum: (album, tracks) => addAlbum(state, album, tracks),
    addTrack: (track) => addTrack(state, track),
    setRelated: (artistId, relatedIds) => void state.related.set(artistId, relatedIds),
    failNext: (...more) => void failures.push(...more),
    requestsTo: (prefix = '/') => fake.requests.filter((r) => r.path.startsWith(prefix)),
    clearRequests: () => void fake.requests.splice(0),
  };
}
