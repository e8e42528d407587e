import { type Fake, startFake } from '../harness.ts';
import { generatedHistory, listHistory } from './history.ts';
import { scrobblerRoutes } from './routes.ts';
import { ScrobblerFakeState } from './state.ts';

export const FAKE_API_KEY = 'fakeapikey0000000000000000000000';
export const FAKE_SECRET = 'fakesecret000000000000000000000';

export interface ScrobblerFake extends Fake {
  state: ScrobblerFakeState;
  /** The configuration that points the service at this fake. */
  env: Record<string, string>;
}

/** A loopback scrobbler speaking API 2.0 JSON in the recorded shapes. */
export async function startScrobblerFake(): Promise<ScrobblerFake> {
  const state = new ScrobblerFakeState(FAKE_API_KEY, FAKE_SECRET);
  const fake = await startFake(scrobblerRoutes(state));
  return {
    ...fake,
    state,
    env: {
      SCROBBLER_API_URL: `${fake.url}/2.0`,
      SCROBBLER_AUTH_URL: `${fake.url}/api/auth`,
      SCROBBLER_API_KEY: FAKE_API_KEY,
      SCROBBLER_API_SECRET: FAKE_SECRET,
    },
  };
}

export { generatedHistory, listHistory };
