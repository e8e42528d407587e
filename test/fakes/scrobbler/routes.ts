import type { Express, Request, Response } from 'express';
import { apiSignature } from '../../../infra/upstreams/scrobbler/signature.ts';
import type { FakeScrobble } from './history.ts';
import type { ScrobblerFakeState } from './state.ts';
import { answerLive } from './live-methods.ts';

const SIGNED = new Set(['auth.getSession']);
const MESSAGES: Record<number, string> = {
  3: 'Invalid Method - No method with that name in this package',
  4: 'Unauthorized Token - This token has not been issued',
  6: 'User not found',
  8: 'Operation failed - Most likely the backend service failed. Please try again.',
  10: 'Invalid API key - You must be granted a valid key by last.fm',
  11: 'Service Offline - This service is temporarily offline. Try again later.',
  13: 'Invalid method signature supplied',
  14: 'Unauthorized Token - This token has not been authorized',
  16: 'There was a temporary error processing your request. Please try again',
  29: 'Rate Limit Exceeded - Your IP has made too many requests in a short period',
};

/** API 2.0 on `/2.0/` (GET query or POST form) and the web-auth page on `/api/auth/`. */
export function scrobblerRoutes(state: ScrobblerFakeState) {
  return (app: Express) => {
    app.all('/2.0/', (req, res) => answer(state, { ...(req.query as Record<string, string>), ...((req.body as Record<string, string>) ?? {}) }, res));
    // The user approves at once; the browser is sent back to `cb` with the token.
    app.get('/api/auth/', (req: Request, res: Response) => {
      if (req.query.api_key !== state.apiKey) return res.status(400).send('Invalid API key');
      const token = state.newToken();
      state.tokens.set(token, state.authorizeAs);
      const cb = new URL(String(req.query.cb));
      cb.searchParams.set('token', token);
      res.redirect(302, cb.toString());
    });
  };
}

function fail(res: Response, code: number, status = 200, message = MESSAGES[code] ?? 'Error') {
  res.status(status).json({ error: code, message, links: [] });
}

function answer(state: ScrobblerFakeState, params: Record<string, string>, res: Response) {
  const method = String(params.method ?? '');
  if (params.api_key !== state.apiKey) return fail(res, 10, 403);
  const injected = state.takeError(method);
  if (injected) return fail(res, injected.code, injected.status ?? 200, injected.message);
  if ((SIGNED.has(method) || params.sk) && !validSignature(state, params)) return fail(res, 13, 403);
  if (params.sk && !state.sessions.has(params.sk)) return fail(res, 9, 403, 'Invalid session key - Please re-authenticate');
  if (answerLive(state, method.toLowerCase(), params, res)) return;
  switch (method.toLowerCase()) {
    case 'auth.gettoken': {
      const token = state.newToken();
      state.tokens.set(token, null);
      return res.json({ token });
    }
    case 'auth.getsession':
      return getSession(state, params, res);
    case 'user.getrecenttracks':
      if (state.delayMs > 0) return void setTimeout(() => recentTracks(state, params, res), state.delayMs);
      return recentTracks(state, params, res);
    case 'album.getinfo':
      return albumInfo(state, params, res);
    case 'track.getinfo':
      return trackInfo(state, params, res);
    default:
      return fail(res, 3, 400);
  }
}

function validSignature(state: ScrobblerFakeState, params: Record<string, string>): boolean {
  const { api_sig: sig, ...rest } = params;
  return sig === apiSignature(rest, state.secret);
}

function getSession(state: ScrobblerFakeState, params: Record<string, string>, res: Response) {
  if (!state.tokens.has(params.token ?? '')) return fail(res, 4, 403);
  const user = state.tokens.get(params.token!);
  if (!user) return fail(res, 14, 403);
  // A token is good for one session.
  state.tokens.delete(params.token!);
  res.json({ session: { name: state.user(user)?.name ?? user, key: state.newSessionKey(user), subscriber: 0 } });
}

function recentTracks(state: ScrobblerFakeState, params: Record<string, string>, res: Response) {
  const user = state.user(params.user ?? '');
  if (!user) return fail(res, 6);
  const limit = Math.min(200, Math.max(1, Number(params.limit ?? 50) || 50));
  const page = Math.max(1, Number(params.page ?? 1) || 1);
  const from = params.from ? Number(params.from) : undefined;
  const to = params.to ? Number(params.to) : undefined;
  const { start, end } = user.history.window(from, to);
  const total = end - start;
  const rows: object[] = [];
  if (page === 1 && user.nowPlaying && to === undefined) rows.push(nowPlayingRow(user.nowPlaying));
  for (let i = start + (page - 1) * limit; i < Math.min(end, start + page * limit); i++) rows.push(trackRow(user.history.at(i)));
  res.json({
    recenttracks: {
      track: rows,
      '@attr': { user: user.name, totalPages: String(Math.ceil(total / limit)), page: String(page), perPage: String(limit), total: String(total) },
    },
  });
}

function albumInfo(state: ScrobblerFakeState, params: Record<string, string>, res: Response) {
  const album = state.album(params.artist ?? '', params.album ?? '');
  if (!album) return fail(res, 6, 200, 'Album not found');
  res.json({
    album: {
      artist: album.artist,
      mbid: album.mbid ?? '',
      tags: { tag: [] },
      name: album.name,
      userplaycount: 0,
      image: images(album.mbid || 'none'),
      tracks: { track: [] },
      listeners: '10',
      playcount: '100',
      url: `https://www.last.fm/music/${slug(album.artist)}/${slug(album.name)}`,
    },
  });
}

/** Like the real service, an unknown track answers a stub (no mbid, no album), not an error. */
function trackInfo(state: ScrobblerFakeState, params: Record<string, string>, res: Response) {
  const known = state.track(params.artist ?? '', params.track ?? '');
  const artist = known?.artist ?? params.artist ?? '';
  const name = known?.name ?? params.track ?? '';
  const url = `https://www.last.fm/music/${slug(artist)}/_/${slug(name)}`;
  res.json({
    track: {
      name,
      ...(known?.mbid ? { mbid: known.mbid } : {}),
      url,
      duration: known ? '215000' : '0',
      streamable: { '#text': '0', fulltrack: '0' },
      listeners: known ? '1000' : '2',
      playcount: known ? '5000' : '4',
      artist: { name: artist, url: `https://www.last.fm/music/${slug(artist)}` },
      ...(known?.album ? { album: { artist, title: known.album, mbid: '', url, image: images('none') } } : {}),
      toptags: { tag: [] },
    },
  });
}

const images = (id: string) =>
  ['small', 'medium', 'large', 'extralarge'].map((size) => ({ size, '#text': `https://images.invalid/i/u/${size}/${id}.jpg` }));

const slug = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

function trackRow(s: FakeScrobble) {
  const date = new Date(s.uts * 1000);
  const text = `${date.getUTCDate()} ${date.toUTCString().slice(8, 11)} ${date.getUTCFullYear()}, ${date.toISOString().slice(11, 16)}`;
  return {
    artist: { mbid: s.artist_mbid, '#text': s.artist },
    album: { mbid: s.album_mbid, '#text': s.album },
    image: images(s.track_mbid || 'none'),
    streamable: '0',
    date: { uts: String(s.uts), '#text': text },
    url: `https://www.last.fm/music/${slug(s.artist)}/_/${slug(s.track)}`,
    name: s.track,
    mbid: s.track_mbid,
  };
}

function nowPlayingRow(p: { artist: string; track: string; album?: string }) {
  return {
    '@attr': { nowplaying: 'true' },
    artist: { mbid: '', '#text': p.artist },
    album: { mbid: '', '#text': p.album ?? '' },
    image: images('none'),
    streamable: '0',
    url: `https://www.last.fm/music/${slug(p.artist)}/_/${slug(p.track)}`,
    name: p.track,
    mbid: '',
  };
}
