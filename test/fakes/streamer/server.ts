import { type Fake, type RecordedRequest, startFake } from '../harness.ts';
import { streamerRoutes } from './routes.ts';
import { StreamerFakeState } from './state.ts';

export const FAKE_CLIENT_ID = 'fakestreamerclientid000000000000';
export const FAKE_CLIENT_SECRET = 'fakestreamerclientsecret00000000';
export const FAKE_REDIRECT_URI = 'http://client.test/streamer/auth/callback';

export interface StreamerFake extends Fake {
  state: StreamerFakeState;
  /** The configuration that points the service at this fake. */
  env: Record<string, string>;
  requestsTo(prefix: string): RecordedRequest[];
}

/** A loopback accounts service and Web API speaking the recorded shapes. */
export async function startStreamerFake(): Promise<StreamerFake> {
  const state = new StreamerFakeState(FAKE_CLIENT_ID, FAKE_CLIENT_SECRET);
  const fake = await startFake(streamerRoutes(state));
  return {
    ...fake,
    state,
    requestsTo: (prefix) => fake.requests.filter((r) => r.path.startsWith(prefix)),
    env: {
      STREAMER_API_URL: `${fake.url}/v1`,
      STREAMER_ACCOUNTS_URL: fake.url,
      STREAMER_CLIENT_ID: FAKE_CLIENT_ID,
      STREAMER_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      STREAMER_REDIRECT_URI: FAKE_REDIRECT_URI,
    },
  };
}
