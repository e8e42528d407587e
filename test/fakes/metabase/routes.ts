import type { Express, Request, Response } from 'express';
import type { Json, MetabaseFakeState } from './state.ts';

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HELP = 'For usage, please see: https://musicbrainz.org/development/mmd';
const RATE_LIMITED = 'Your requests are exceeding the allowable rate limit. Please see https://wiki.musicbrainz.org/MusicBrainz_API/Rate_Limiting for more information.';
/** One request a second, less the jitter of arrival on a loaded machine (requests leave a second apart). */
const RATE_TOLERANCE_MS = 700;
const ENTITIES = ['artist', 'release-group', 'release', 'recording', 'label', 'work', 'area'];
/** Search answers name their list in the plural. */
const PLURAL: Record<string, string> = { artist: 'artists', 'release-group': 'release-groups', release: 'releases', recording: 'recordings', label: 'labels', work: 'works' };

/** The web service 2 as the recorded answers show it, under `/ws/2`, JSON only (`fmt=json`). */
export function metabaseRoutes(state: MetabaseFakeState) {
  return (app: Express) => {
    app.use('/ws/2', (_req, _res, next) => void setTimeout(next, state.delayMs));
    app.use('/ws/2', (req, res, next) => {
      const now = Date.now();
      const tooFast = state.enforceRate && now - state.lastAt < RATE_TOLERANCE_MS;
      state.lastAt = now;
      if (tooFast) state.tooFast++;
      if (tooFast || state.busy > 0) {
        if (!tooFast) state.busy--;
        if (state.busyRetryAfter) res.set('retry-after', state.busyRetryAfter);
        return void res.status(503).json({ error: RATE_LIMITED });
      }
      if (req.query.fmt !== 'json') return void res.status(400).type('application/xml').send('<error><text>This fake answers JSON only: fmt=json</text></error>');
      next();
    });
    app.get('/ws/2/isrc/:isrc', (req, res) => {
      const recordings = state.all('recording').filter((r) => (r.isrcs ?? []).includes(req.params.isrc));
      if (recordings.length === 0) return notFound(res);
      res.json({ isrc: req.params.isrc, recordings });
    });
    app.get('/ws/2/:kind/:mbid', (req, res) => {
      if (!ENTITIES.includes(String(req.params.kind))) return notFound(res);
      if (!MBID.test(String(req.params.mbid))) return void res.status(400).json({ error: 'Invalid mbid.', help: HELP });
      const entity = state.get(String(req.params.kind), String(req.params.mbid));
      if (!entity) return notFound(res);
      res.json(entity);
    });
    app.get('/ws/2/:kind', (req, res) => {
      const kind = String(req.params.kind);
      if (kind === 'release-group' && typeof req.query.artist === 'string') return browseReleaseGroups(state, req, res);
      if (!PLURAL[kind] || typeof req.query.query !== 'string') return void res.status(400).json({ error: 'Invalid resource or missing query.', help: HELP });
      search(state, kind, req, res);
    });
  };
}

function notFound(res: Response): void {
  res.status(404).json({ error: 'Not Found', help: HELP });
}

function paging(req: Request, fallback: number) {
  const limit = Math.min(100, Math.max(1, Number(req.query.limit ?? fallback) || fallback));
  const offset = Math.max(0, Number(req.query.offset ?? 0) || 0);
  return { limit, offset };
}

/** A small Lucene: `barcode:…` and `isrc:…` terms joined by OR, or free text matched against names and titles. */
function search(state: MetabaseFakeState, kind: string, req: Request, res: Response): void {
  const query = String(req.query.query);
  const terms = query.split(/\s+OR\s+/).map((t) => /^(barcode|isrc):(.+)$/.exec(t.trim()));
  const text = query.replace(/["()]/g, '').replace(/\b\w+:/g, '').trim().toLowerCase();
  const hits = state.all(kind).filter((e) => {
    if (terms.every(Boolean)) return terms.some((m) => (m![1] === 'barcode' ? e.barcode === m![2] : (e.isrcs ?? []).includes(m![2])));
    return text !== '' && String(e.name ?? e.title ?? '').toLowerCase().includes(text);
  });
  const { limit, offset } = paging(req, 25);
  res.json({ created: new Date().toISOString(), count: hits.length, offset, [PLURAL[kind]!]: hits.slice(offset, offset + limit).map((h) => ({ ...h, score: 100 })) });
}

function browseReleaseGroups(state: MetabaseFakeState, req: Request, res: Response): void {
  const artist = String(req.query.artist);
  const groups = state.all('release-group').filter((g) => (g['artist-credit'] as Json[] | undefined)?.some((c) => c.artist?.id === artist));
  const { limit, offset } = paging(req, 25);
  res.json({ 'release-group-count': groups.length, 'release-group-offset': offset, 'release-groups': groups.slice(offset, offset + limit) });
}

/**
 * The cover art archive: the image list of a release or release group is a redirect to the
 * archive that stores it (another origin), which answers the JSON.
 */
export function coverArtRoutes(state: MetabaseFakeState, archiveUrl: () => string) {
  return (app: Express) => {
    app.get('/:kind/:mbid', (req, res) => {
      const key = `${req.params.kind}/${req.params.mbid}`;
      if (!['release', 'release-group'].includes(String(req.params.kind)) || !state.coverArt.has(key)) return void res.status(404).type('text/plain').send('Not Found');
      res.redirect(307, `${archiveUrl()}/download/mbid-${req.params.mbid}/${req.params.kind}.index.json`);
    });
  };
}

export function archiveRoutes(state: MetabaseFakeState) {
  return (app: Express) => {
    app.get('/download/:item/:file', (req, res) => {
      const mbid = String(req.params.item).replace(/^mbid-/, '');
      const kind = String(req.params.file).replace(/\.index\.json$/, '');
      const images = state.coverArt.get(`${kind}/${mbid}`);
      if (!images) return void res.status(404).type('text/plain').send('Not Found');
      res.json(images);
    });
  };
}
