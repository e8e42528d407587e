import type { Express, Request, Response } from 'express';
import { fixtureJson } from '../harness.ts';
import type { FakeAccount, Json, StreamerFakeState } from './state.ts';

const MAX_LIMIT = 50;
const MAX_PLAYLIST_LIMIT = 100;

const apiError = (res: Response, status: number, message: string) => res.status(status).json({ error: { status, message } });

/** The accounts service (`/authorize` is the browser's, not ours; `/api/token` is) and the Web API under `/v1`. */
export function streamerRoutes(state: StreamerFakeState) {
  return (app: Express) => {
    const page = (req: Request, all: Json[], max: number) => offsetPage(req, all, Math.min(max, state.maxPage));
    app.post('/api/token', (req, res) => token(state, req, res));

    app.use('/v1', (req, res, next) => {
      const failure = state.failures.shift();
      if (failure) {
        if (failure.status === 429) res.setHeader('Retry-After', String(failure.retryAfter));
        return apiError(res, failure.status, failure.status === 429 ? 'API rate limit exceeded' : 'Server error');
      }
      // The audio-features endpoint takes an app token (client credentials) as well as a user's.
      const account = state.accountOf(req.headers.authorization);
      if (!account && !(req.path === '/audio-features' && state.appTokenValid(req.headers.authorization))) return apiError(res, 401, 'The access token expired');
      res.locals.account = account;
      // A test may hold the page back until it has done something (a cancel) while the client waits for it.
      Promise.resolve(state.onPage(req.path)).then(() => next(), next);
    });

    app.get('/v1/me', (_req, res) => {
      const account = res.locals.account as FakeAccount;
      res.json({ display_name: account.display_name, external_urls: { spotify: `https://open.spotify.com/user/${account.id}` }, href: `https://api.spotify.com/v1/users/${account.id}`, id: account.id, images: [], type: 'user', uri: `spotify:user:${account.id}`, followers: { href: null, total: 0 } });
    });
    app.get('/v1/me/tracks', (req, res) => res.json(page(req, (res.locals.account as FakeAccount).savedTracks, MAX_LIMIT)));
    app.get('/v1/me/albums', (req, res) => res.json(page(req, (res.locals.account as FakeAccount).savedAlbums, MAX_LIMIT)));
    app.get('/v1/me/playlists', (req, res) => res.json(page(req, (res.locals.account as FakeAccount).playlists.map((p) => p.playlist), MAX_LIMIT)));
    app.get('/v1/playlists/:id/tracks', (req, res) => {
      const found = (res.locals.account as FakeAccount).playlists.find((p) => p.playlist.id === req.params.id);
      if (!found) return apiError(res, 404, 'Not found.');
      res.json(page(req, found.items, MAX_PLAYLIST_LIMIT));
    });
    app.get('/v1/me/following', (req, res) => {
      if (req.query.type !== 'artist') return apiError(res, 400, 'Invalid type');
      res.json({ artists: cursorPage(req, (res.locals.account as FakeAccount).followedArtists, Math.min(MAX_LIMIT, state.maxPage)) });
    });
    app.get('/v1/me/player/recently-played', (req, res) => {
      const limit = clamp(req.query.limit, 20, MAX_LIMIT);
      const items = (res.locals.account as FakeAccount).recentlyPlayed.slice(0, limit);
      const times = items.map((i) => Date.parse(i.played_at));
      res.json({
        items,
        next: null,
        cursors: items.length ? { after: String(Math.max(...times)), before: String(Math.min(...times)) } : null,
        limit,
        href: `${base(req)}/v1/me/player/recently-played?limit=${limit}`,
      });
    });
    app.get('/v1/audio-features', (req, res) => {
      if (state.audioFeaturesForbidden) return apiError(res, 403, 'Forbidden');
      const recorded = fixtureJson<Json>('spotify', 'audio-features.ids.json').audio_features[0];
      const ids = String(req.query.ids ?? '').split(',').filter(Boolean);
      res.json({ audio_features: ids.map((id) => ({ ...recorded, id, uri: `spotify:track:${id}` })) });
    });
  };
}

function token(state: StreamerFakeState, req: Request, res: Response) {
  const form = req.body as Record<string, string>;
  const basic = Buffer.from(`${state.clientId}:${state.clientSecret}`).toString('base64');
  if (req.headers.authorization !== `Basic ${basic}`) return res.status(400).json(fixtureJson('spotify', 'token.error.invalid_client.json'));
  if (form.grant_type === 'authorization_code') {
    const accountId = state.redeem(form.code ?? '', form.code_verifier ?? '', form.redirect_uri ?? '');
    if (!accountId) return res.status(400).json({ error: 'invalid_grant', error_description: 'Invalid authorization code' });
    const issued = state.issue(accountId);
    return res.json({ ...fixtureJson<Json>('spotify', 'token.authorization_code.json'), ...issued });
  }
  if (form.grant_type === 'refresh_token') {
    const accountId = state.refreshTokens.get(form.refresh_token ?? '');
    if (!accountId) return res.status(400).json({ error: 'invalid_grant', error_description: 'Invalid refresh token' });
    const { access_token, refresh_token, expires_in } = state.issue(accountId);
    // Without rotation the old refresh token stays valid and the answer carries none (the recorded shape).
    if (state.rotateRefreshTokens) {
      state.refreshTokens.delete(form.refresh_token!);
      return res.json({ ...fixtureJson<Json>('spotify', 'token.refresh_token.json'), access_token, expires_in, refresh_token });
    }
    state.refreshTokens.delete(refresh_token);
    return res.json({ ...fixtureJson<Json>('spotify', 'token.refresh_token.json'), access_token, expires_in });
  }
  if (form.grant_type === 'client_credentials') {
    return res.json({ ...fixtureJson<Json>('spotify', 'token.client_credentials.json'), ...state.issueAppToken() });
  }
  return res.status(400).json({ error: 'unsupported_grant_type', error_description: `grant_type ${form.grant_type} is not supported` });
}

const base = (req: Request) => `${req.protocol}://${req.get('host')}`;

function clamp(value: unknown, fallback: number, max: number): number {
  const n = Number(value ?? fallback);
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : Math.min(fallback, max);
}

/** The paging object of offset-paged lists, `next` an absolute link as the API gives it. */
function offsetPage(req: Request, all: Json[], max: number) {
  const limit = clamp(req.query.limit, 20, max);
  const offset = Math.max(0, Number(req.query.offset ?? 0) || 0);
  const link = (o: number) => `${base(req)}${req.baseUrl}${req.path}?offset=${o}&limit=${limit}`;
  return {
    href: link(offset),
    items: all.slice(offset, offset + limit),
    limit,
    next: offset + limit < all.length ? link(offset + limit) : null,
    offset,
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    total: all.length,
  };
}

/** The cursor paging of followed artists: `after` is the last id of the page before. */
function cursorPage(req: Request, all: Json[], max: number) {
  const limit = clamp(req.query.limit, 20, max);
  const after = typeof req.query.after === 'string' ? all.findIndex((a) => a.id === req.query.after) + 1 : 0;
  const items = all.slice(after, after + limit);
  const last = items.at(-1)?.id;
  const more = after + limit < all.length;
  return {
    items,
    next: more ? `${base(req)}/v1/me/following?type=artist&after=${last}&limit=${limit}` : null,
    total: all.length,
    cursors: { after: more ? last : null },
    limit,
    href: `${base(req)}/v1/me/following?type=artist&limit=${limit}`,
  };
}
