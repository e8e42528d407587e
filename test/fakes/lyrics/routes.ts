import type { Express, Request, Response } from 'express';
import { fixtureJson } from '../harness.ts';

export interface LyricsRecordJson {
  id: number;
  trackName: string;
  artistName: string;
  albumName: string | null;
  duration: number;
  instrumental: boolean;
  plainLyrics: string | null;
  syncedLyrics: string | null;
}

export interface LyricsState {
  records: LyricsRecordJson[];
  /** Statuses the next requests answer instead (429 with Retry-After: 1). */
  failures: number[];
  /** Held before every answer, to exercise timeouts and cancels. */
  delayMs: number;
  /** Track names whose look-ups answer 500 until removed. */
  broken: Set<string>;
}

const same = (a: string | null | undefined, b: unknown) => (a ?? '').toLowerCase() === String(b ?? '').toLowerCase();

/** LRCLIB's API: `/api/get` needs track, artist, album and duration (±2 s); `/api/search` by track and artist. */
export function lyricsRoutes(state: LyricsState) {
  const notFound = fixtureJson('lrclib', 'api.get.404.json');
  const hold = async (req: Request, res: Response) => {
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const status = state.broken.has(String(req.query.track_name)) ? 500 : state.failures.shift();
    if (status === undefined) return false;
    if (status === 429) res.setHeader('retry-after', '1');
    res.status(status).json({ message: 'failure', name: 'Failure', statusCode: status });
    return true;
  };
  return (app: Express) => {
    app.get('/api/get', async (req: Request, res: Response) => {
      if (await hold(req, res)) return;
      const q = req.query;
      if (!q.track_name || !q.artist_name || !q.album_name || !q.duration) {
        res.status(400).json({ code: 400, name: 'ValidationError', message: 'missing parameters' });
        return;
      }
      const found = state.records.find((r) => same(r.trackName, q.track_name) && same(r.artistName, q.artist_name) && same(r.albumName, q.album_name) && Math.abs(r.duration - Number(q.duration)) <= 2);
      if (found) res.json({ name: found.trackName, ...found });
      else res.status(404).json(notFound);
    });
    app.get('/api/search', async (req: Request, res: Response) => {
      if (await hold(req, res)) return;
      const rows = state.records.filter((r) => same(r.trackName, req.query.track_name) && same(r.artistName, req.query.artist_name));
      res.json(rows.map((r) => ({ name: r.trackName, ...r })));
    });
  };
}
