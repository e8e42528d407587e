import type { Express, Request, Response } from 'express';
import { type Fake, fixtureJson, type RecordedRequest, startFake } from '../harness.ts';
import { type AccountState, accountRoutes, type FakePin } from './account-routes.ts';
import { FakeLibrary, type Json } from './library.ts';
import { type ServerIdentity, serverRoutes } from './server-routes.ts';
import { type MediaState, mediaRoutes } from './media-routes.ts';
import { FakePlaylists } from './playlists.ts';

export type { Json, TrackSpec } from './library.ts';
export { FakeLibrary } from './library.ts';

export const ADMIN_TOKEN = 'fake-admin-token';

/**
 * A loopback media server and its account service on one port (their paths do not overlap): point
 * both MEDIASERVER_URL and MEDIASERVER_ACCOUNT_URL at `url`. It answers XML, or JSON when asked, in
 * the recorded shapes; tests shape the library, move PINs along and read `requests`.
 */
export interface MediaserverFake extends Fake {
  readonly library: FakeLibrary;
  /** Parts, transcoder, timeline and playlists: see media-routes.ts. */
  readonly media: MediaState;
  readonly adminToken: string;
  readonly identity: ServerIdentity;
  /** The user completes linking on the account service: the PIN gets a token (returned). */
  linkPin(pinId?: number): string;
  /** Ends a PIN's life now (as if its lifetime had passed). */
  expirePin(pinId?: number): void;
  pins(): FakePin[];
  /** The lifetime of PINs created from now on. */
  setPinLifetime(seconds: number): void;
  /** The server and account service stop accepting a token (the user signed out everywhere). */
  revoke(token: string): void;
  /** The account a token signs in as. */
  account: Json;
  homeUsers: Json[];
  /** Switching to this home user needs this PIN. */
  requirePin(uuid: string, pin: string): void;
  /** Paths answered as XML whatever the client asks. */
  xmlOnly: Set<string>;
  /** The next request whose path starts with `pathPrefix` answers `status` instead (once per call). */
  failNext(status: number, pathPrefix?: string): void;
  /** The next request whose path starts with `pathPrefix` is answered by `answer` instead (once per call). */
  answerNext(pathPrefix: string, answer: (req: Request, res: Response) => void): void;
  requestsTo(prefix?: string): RecordedRequest[];
  clearRequests(): void;
}

export interface MediaserverFakeOptions {
  /** Start with the recorded Skrillex album and its tracks. Default true. */
  fixtures?: boolean;
  pinLifetimeSeconds?: number;
  machineIdentifier?: string;
}

export async function startMediaserverFake(options: MediaserverFakeOptions = {}): Promise<MediaserverFake> {
  const library = new FakeLibrary();
  if (options.fixtures ?? true) library.loadFixtures();
  const account: Json = { ...fixtureJson<Json>('plex', 'plextv.api.v2.user.plexpass.json'), id: 2737029, uuid: 'ADMIN_UUID' };
  delete account.authToken;
  const homeUsers = fixtureJson<{ users: Json[] }>('plex', 'plextv.api.v2.home.users.json').users;
  const accountState: AccountState = {
    pins: new Map(),
    pinLifetimeSeconds: options.pinLifetimeSeconds ?? 900,
    tokens: new Map(),
    homeUsers,
    homePins: new Map(),
    nextPinId: 111222333,
    nextToken: 1,
  };
  const identity: ServerIdentity = {
    machineIdentifier: options.machineIdentifier ?? 'fakemachine0001',
    friendlyName: 'Fake Box',
    version: '1.40.1.8227-c0dd5a73e',
    platform: 'Linux',
    platformVersion: '6.1.0',
  };
  const xmlOnly = new Set<string>();
  const serverState = { library, identity, xmlOnly, acceptsToken: (t: string | undefined) => t === ADMIN_TOKEN || (t !== undefined && accountState.tokens.has(t)) };
  const overrides: { pathPrefix: string; answer: (req: Request, res: Response) => void }[] = [];
  const media: MediaState = {
    library,
    playlists: new FakePlaylists(),
    machineIdentifier: () => identity.machineIdentifier,
    timelineStatus: 200,
    partReads: [],
    slowParts: new Set(),
    stalledParts: new Map(),
  };
  const fake = await startFake((app: Express) => {
    app.use((req, res, next) => {
      const i = overrides.findIndex((o) => req.path.startsWith(o.pathPrefix));
      if (i < 0) return next();
      const [override] = overrides.splice(i, 1);
      override!.answer(req, res);
    });
    accountRoutes(accountState)(app);
    serverRoutes(serverState)(app);
    mediaRoutes(media)(app);
  });
  const pick = (pinId?: number): FakePin => {
    const pin = pinId === undefined ? [...accountState.pins.values()].at(-1) : accountState.pins.get(pinId);
    if (!pin) throw new Error(`no PIN ${pinId ?? '(none created)'}`);
    return pin;
  };
  return {
    ...fake,
    library,
    media,
    adminToken: ADMIN_TOKEN,
    identity,
    account,
    homeUsers,
    xmlOnly,
    linkPin(pinId) {
      const pin = pick(pinId);
      const token = `user-token-${accountState.nextToken++}`;
      accountState.tokens.set(token, { ...account, authToken: token });
      pin.authToken = token;
      return token;
    },
    expirePin: (pinId) => void (pick(pinId).expired = true),
    pins: () => [...accountState.pins.values()],
    setPinLifetime: (seconds) => void (accountState.pinLifetimeSeconds = seconds),
    revoke: (token) => void accountState.tokens.delete(token),
    requirePin: (uuid, pin) => void accountState.homePins.set(uuid, pin),
    failNext: (status, pathPrefix = '/') =>
      void overrides.push({ pathPrefix, answer: (_req, res) => void res.status(status).type('text/html').send(`<html><body>fake failure ${status}</body></html>`) }),
    answerNext: (pathPrefix, answer) => void overrides.push({ pathPrefix, answer }),
    requestsTo: (prefix = '/') => fake.requests.filter((r) => r.path.startsWith(prefix)),
    clearRequests: () => void fake.requests.splice(0),
  };
}

/** The service's configuration pointing at a fake: both services, its admin token, a fixed client id. */
export function mediaserverEnv(fake: MediaserverFake): Record<string, string> {
  return { MEDIASERVER_URL: fake.url, MEDIASERVER_TOKEN: fake.adminToken, MEDIASERVER_ACCOUNT_URL: fake.url, MEDIASERVER_CLIENT_ID: 'test-client-id' };
}
