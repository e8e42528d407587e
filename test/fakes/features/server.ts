import { type Fake, type RecordedRequest, fixtureJson, startFake } from '../harness.ts';
import { type FakeRecording, type FeaturesState, featuresRoutes } from './routes.ts';

/** The recorded documents: 0dad432b (Austin Wintory's "Nascence": low-level and high-level), e8afe383 (low-level bulk row only: a key, no tempo). */
export const NASCENCE = '0dad432b-16cc-4bf0-8961-fd31d124b01b';
export const KEY_ONLY = 'e8afe383-1478-497e-90b1-7885c7f37f6e';

/** A loopback features database (AcousticBrainz's wire format), starting with the recorded recordings. */
export interface FeaturesFake extends Fake {
  state: FeaturesState;
  env: Record<string, string>;
  /** Holds Nascence's documents under another recording id too. */
  addLike(mbid: string): void;
  requestsTo(path: string): RecordedRequest[];
  clearRequests(): void;
}

export async function startFeaturesFake(): Promise<FeaturesFake> {
  const nascence: FakeRecording = {
    lowlevel: fixtureJson('acousticbrainz', 'api.v1.0dad432b.low-level.trimmed.json'),
    highlevel: fixtureJson('acousticbrainz', 'api.v1.0dad432b.high-level.json'),
  };
  const bulk = fixtureJson<Record<string, Record<string, Record<string, unknown>>>>('acousticbrainz', 'api.v1.low-level.bulk.recording_ids-features.json');
  const state: FeaturesState = {
    recordings: new Map([
      [NASCENCE, nascence],
      [KEY_ONLY, { lowlevel: bulk[KEY_ONLY]!['0']!, highlevel: null }],
    ]),
    maxRecordings: 25,
    failures: [],
  };
  const fake = await startFake(featuresRoutes(state));
  return {
    ...fake,
    state,
    env: { FEATURES_API_URL: fake.url },
    addLike: (mbid) => void state.recordings.set(mbid, nascence),
    requestsTo: (path) => fake.requests.filter((r) => r.path === path),
    clearRequests: () => void fake.requests.splice(0),
  };
}
