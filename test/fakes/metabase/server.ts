import { type Fake, type RecordedRequest, startFake } from '../harness.ts';
import { archiveRoutes, coverArtRoutes, metabaseRoutes } from './routes.ts';
import { MetabaseFakeState } from './state.ts';

export type { Json } from './state.ts';

/**
 * A loopback metabase (web service 2 under `/ws/2`) with the cover art archive and the archive
 * its image lists redirect to (two more origins). Tests add entities, queue 503s, and read the
 * requests each origin received.
 */
export interface MetabaseFake extends Fake {
  state: MetabaseFakeState;
  coverArt: Fake;
  archive: Fake;
  /** METABASE_API_URL and COVERART_API_URL pointing here. */
  env: Record<string, string>;
  /** Requests to the web service whose path starts with `/ws/2<prefix>`. */
  requestsTo(prefix?: string): RecordedRequest[];
  clearRequests(): void;
  closeAll(): Promise<void>;
}

export async function startMetabaseFake(options: { fixtures?: boolean } = {}): Promise<MetabaseFake> {
  const state = new MetabaseFakeState();
  if (options.fixtures ?? true) state.loadFixtures();
  const fake = await startFake(metabaseRoutes(state));
  const archive = await startFake(archiveRoutes(state));
  const coverArt = await startFake(coverArtRoutes(state, () => archive.url));
  return {
    ...fake,
    state,
    coverArt,
    archive,
    env: { METABASE_API_URL: `${fake.url}/ws/2`, COVERART_API_URL: coverArt.url },
    requestsTo: (prefix = '') => fake.requests.filter((r) => r.path.startsWith(`/ws/2${prefix}`)),
    clearRequests: () => {
      for (const f of [fake, archive, coverArt]) f.requests.splice(0);
    },
    closeAll: () => Promise.all([fake.close(), archive.close(), coverArt.close()]).then(() => undefined),
  };
}
