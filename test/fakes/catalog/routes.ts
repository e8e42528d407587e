import type { Express, Request, Response } from 'express';
import { type CatalogState, embeddedTrack, type Json, tracklistRow, tracksOf } from './store.ts';

/** A failure the fake answers instead of the real thing, once per queued entry. */
export type Failure = 'quota' | 'busy' | 'wrong-parameter' | { status: number };

const ENVELOPES: Record<Exclude<Failure, { status: number }>, Json> = {
  quota: { error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } },
  busy: { error: { type: 'Exception', message: 'Service busy', code: 700 } },
  'wrong-parameter': { error: { type: 'ParameterException', message: 'Wrong parameter', code: 500 } },
};
const NO_DATA = { error: { type: 'DataException', message: 'no data', code: 800 } };
/** The real API's page size when `limit` is absent. */
const DEFAULT_LIMIT = 25;

/** The catalog's public read API, as the recorded payloads show it: errors are HTTP 200 envelopes. */
export function catalogRoutes(state: CatalogState, failures: Failure[], maxLimit = Number.POSITIVE_INFINITY) {
  const page = (req: Request, res: Response, items: Json[]) => pageOf(req, res, items, maxLimit);
  return (app: Express) => {
    app.use((_req, res, next) => {
      const failure = failures.shift();
      if (!failure) return next();
      if (typeof failure === 'object') res.status(failure.status).json({ error: { type: 'Exception', message: 'fake failure' } });
      else res.json(ENVELOPES[failure]);
    });
    app.get('/artist/:id', (req, res) => answer(res, state.artists.get(idParam(req))));
    app.get('/artist/:id/related', (req, res) => {
      const ids = state.related.get(idParam(req));
      if (!ids) return answer(res, state.artists.has(idParam(req)) ? [] : undefined);
      page(req, res, ids.map((id) => state.artists.get(id)!));
    });
    app.get('/artist/:id/albums', (req, res) => {
      const id = idParam(req);
      if (!state.artists.has(id)) return answer(res, undefined);
      page(req, res, [...state.albums.values()].filter((a) => a.artist?.id === id).map(artistAlbumRow));
    });
    app.get('/album/:id', (req, res) => {
      const album = byCode(req, 'upc', state.albums) ?? state.albums.get(idParam(req));
      answer(res, album && { ...album, tracks: { data: tracksOf(state, album.id).map(embeddedTrack) } });
    });
    app.get('/album/:id/tracks', (req, res) => {
      const album = state.albums.get(idParam(req));
      if (!album) return answer(res, undefined);
      page(req, res, tracksOf(state, album.id).map(tracklistRow));
    });
    app.get('/track/:id', (req, res) => answer(res, byCode(req, 'isrc', state.tracks) ?? state.tracks.get(idParam(req))));
    app.get('/search/artist', (req, res) => page(req, res, matching([...state.artists.values()], 'name', req)));
    app.get('/search/album', (req, res) => page(req, res, matching([...state.albums.values()], 'title', req)));
    app.get('/search', (req, res) => page(req, res, matching([...state.tracks.values()], 'title', req)));
  };
}

/** A row of `/artist/{id}/albums`: the album reference with its type and counts, no artist. */
function artistAlbumRow(album: Json): Json {
  const { artist: _artist, contributors: _contributors, tracks: _tracks, upc: _upc, genres: _genres, label: _label, nb_tracks: _n, duration: _d, ...row } = album;
  return row;
}

/** `/track/isrc:{ISRC}` and `/album/upc:{UPC}` look an entity up by its code instead of its id. */
function byCode(req: Request, code: 'isrc' | 'upc', items: Map<number, Json>): Json | undefined {
  const [prefix, value] = String(req.params.id).split(':');
  if (prefix !== code || !value) return undefined;
  return [...items.values()].find((item) => item[code] === value);
}

function idParam(req: Request): number {
  const id = String(req.params.id);
  return /^\d+$/.test(id) ? Number(id) : Number.NaN;
}

function answer(res: Response, body: Json | Json[] | undefined): void {
  if (body === undefined) res.json(NO_DATA);
  else if (Array.isArray(body)) res.json({ data: body, total: body.length });
  else res.json(body);
}

function matching(items: Json[], field: string, req: Request): Json[] {
  const q = String(req.query.q ?? '').toLowerCase().trim();
  return items.filter((item) => q !== '' && String(item[field]).toLowerCase().includes(q));
}

/** `{data, total, prev?, next?}`, paged by `index`/`limit`, with absolute links that keep the query. */
function pageOf(req: Request, res: Response, items: Json[], maxLimit: number): void {
  const index = Math.max(0, Number(req.query.index ?? 0) || 0);
  const limit = Math.min(maxLimit, Math.max(1, Number(req.query.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT));
  const body: Json = { data: items.slice(index, index + limit), total: items.length };
  const link = (at: number) => {
    const url = new URL(req.originalUrl, `http://${req.headers.host}`);
    url.searchParams.set('index', String(at));
    return url.toString();
  };
  if (index > 0) body.prev = link(Math.max(0, index - limit));
  if (index + limit < items.length) body.next = link(index + limit);
  res.json(body);
}
