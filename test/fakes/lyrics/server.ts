import { type Fake, type RecordedRequest, fixtureJson, startFake } from '../harness.ts';
import { type LyricsRecordJson, type LyricsState, lyricsRoutes } from './routes.ts';

export type { LyricsRecordJson } from './routes.ts';

/** A loopback lyrics provider (LRCLIB's wire format), starting with the recorded records. */
export interface LyricsFake extends Fake {
  state: LyricsState;
  env: Record<string, string>;
  add(record: Partial<LyricsRecordJson> & Pick<LyricsRecordJson, 'trackName' | 'artistName'>): LyricsRecordJson;
  requestsTo(path: string): RecordedRequest[];
  clearRequests(): void;
}

/** The recorded `/api/get` answers: Borislav Slavov's "I Want to Live" (plain and synced), and an instrumental. */
export const RECORDED = {
  found: () => fixtureJson<LyricsRecordJson>('lrclib', 'api.get.found.json'),
  instrumental: () => fixtureJson<LyricsRecordJson>('lrclib', 'api.get.instrumental.navidrome-edited.json'),
};

export async function startLyricsFake(): Promise<LyricsFake> {
  const state: LyricsState = { records: [], failures: [], delayMs: 0, broken: new Set() };
  const fake = await startFake(lyricsRoutes(state));
  let nextId = 1;
  return {
    ...fake,
    state,
    env: { LYRICS_API_URL: fake.url },
    add(record) {
      const full: LyricsRecordJson = { id: nextId++, albumName: null, duration: 200, instrumental: false, plainLyrics: null, syncedLyrics: null, ...record };
      state.records.push(full);
      return full;
    },
    requestsTo: (path) => fake.requests.filter((r) => r.path === path),
    clearRequests: () => void fake.requests.splice(0),
  };
}
