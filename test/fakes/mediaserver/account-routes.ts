import type { Express, Request, Response } from 'express';
import { fixtureJson } from '../harness.ts';
import type { Json } from './library.ts';

export interface FakePin {
  id: number;
  code: string;
  clientIdentifier: string;
  createdAtMs: number;
  lifetimeSeconds: number;
  authToken: string | null;
  expired: boolean;
}

export interface AccountState {
  pins: Map<number, FakePin>;
  pinLifetimeSeconds: number;
  /** Token → the account user it signs in as. */
  tokens: Map<string, Json>;
  homeUsers: Json[];
  /** Home user uuid → the PIN that switching to it needs (none: no PIN). */
  homePins: Map<string, string>;
  nextPinId: number;
  nextToken: number;
}

const envelope = (code: number, message: string) => ({ errors: [{ code, message }] });
const tokenOf = (req: Request) => (req.headers['x-plex-token'] as string | undefined) ?? (req.query['X-Plex-Token'] as string | undefined);
const clientOf = (req: Request) => (req.headers['x-plex-client-identifier'] as string | undefined) ?? '';

export function pinExpired(pin: FakePin, now = Date.now()): boolean {
  return pin.expired || now >= pin.createdAtMs + pin.lifetimeSeconds * 1000;
}

export function pinJson(pin: FakePin): Json {
  const base = fixtureJson<Json>('plex', 'plextv.api.v2.pins.POST.201.json');
  return {
    ...base,
    id: pin.id,
    code: pin.code,
    clientIdentifier: pin.clientIdentifier,
    expiresIn: pin.lifetimeSeconds,
    createdAt: new Date(pin.createdAtMs).toISOString(),
    expiresAt: new Date(pin.createdAtMs + pin.lifetimeSeconds * 1000).toISOString(),
    authToken: pin.authToken,
    newRegistration: pin.authToken ? false : null,
  };
}

/** The account service's v2 JSON API: PINs, the signed-in user, home users and switching. */
export function accountRoutes(state: AccountState) {
  const signedIn = (req: Request, res: Response): Json | undefined => {
    const user = state.tokens.get(tokenOf(req) ?? '');
    if (!user) res.status(401).json(envelope(1001, 'User could not be authenticated'));
    return user;
  };
  return (app: Express) => {
    app.post('/api/v2/pins', (req, res) => {
      if (!clientOf(req)) return void res.status(400).json(envelope(1000, 'X-Plex-Client-Identifier is missing'));
      const id = state.nextPinId++;
      const pin: FakePin = { id, code: `C${id.toString(36).toUpperCase()}`, clientIdentifier: clientOf(req), createdAtMs: Date.now(), lifetimeSeconds: state.pinLifetimeSeconds, authToken: null, expired: false };
      state.pins.set(id, pin);
      res.status(201).json(pinJson(pin));
    });
    app.get('/api/v2/pins/:id', (req, res) => {
      const pin = state.pins.get(Number(req.params.id));
      if (!pin || pin.clientIdentifier !== clientOf(req) || pinExpired(pin)) return void res.status(404).json(envelope(1020, 'Code not found or expired'));
      res.json(pinJson(pin));
    });
    app.get('/api/v2/user', (req, res) => {
      const user = signedIn(req, res);
      if (user) res.json(user);
    });
    app.get('/api/v2/home/users', (req, res) => {
      if (!signedIn(req, res)) return;
      res.json({ ...fixtureJson<Json>('plex', 'plextv.api.v2.home.users.json'), users: state.homeUsers });
    });
    app.post('/api/v2/home/users/:uuid/switch', (req, res) => {
      if (!signedIn(req, res)) return;
      const target = state.homeUsers.find((u) => u.uuid === req.params.uuid);
      if (!target) return void res.status(404).json(envelope(1002, 'User not found'));
      const needed = state.homePins.get(String(target.uuid));
      if (needed !== undefined && req.query.pin !== needed) return void res.status(403).json(envelope(1041, 'A valid PIN is required to perform this action'));
      const token = `home-token-${state.nextToken++}`;
      const user = { ...fixtureJson<Json>('plex', 'plextv.api.v2.home.users.uuid.switch.POST.json'), ...target, authToken: token };
      state.tokens.set(token, user);
      res.status(201).json(user);
    });
  };
}
