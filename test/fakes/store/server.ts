import type { Express } from 'express';
import { type Fake, type RecordedRequest, fixture, startFake } from '../harness.ts';

export type StoreRow = Record<string, unknown>;

/** A loopback store look-up API (iTunes Search API shape, served as `text/javascript` like the real one). */
export interface StoreFake extends Fake {
  env: Record<string, string>;
  /** The rows `/lookup?upc=` answers for a UPC (the album row first, then its songs). */
  byUpc: Map<string, StoreRow[]>;
  /** The rows `/lookup?isrc=` answers for an ISRC. */
  byIsrc: Map<string, StoreRow[]>;
  /** Statuses the next requests answer instead (403 is the store's rate-limit answer). */
  failures: number[];
  requestsTo(path: string): RecordedRequest[];
}

/** The recorded look-up (Dreamcatcher's "Nightmare·Escape The ERA - EP" and its songs). */
export const recordedLookup = () => JSON.parse(fixture('itunes', 'lookup.id-1728639278.entity-song.country-us.raw.json')) as { resultCount: number; results: StoreRow[] };

export async function startStoreFake(): Promise<StoreFake> {
  const byUpc = new Map<string, StoreRow[]>();
  const byIsrc = new Map<string, StoreRow[]>();
  const failures: number[] = [];
  const fake = await startFake((app: Express) => {
    app.get('/lookup', (req, res) => {
      const status = failures.shift();
      if (status !== undefined) {
        res.status(status).send('');
        return;
      }
      const rows = (req.query.upc ? byUpc.get(String(req.query.upc)) : req.query.isrc ? byIsrc.get(String(req.query.isrc)) : undefined) ?? [];
      res.type('text/javascript; charset=utf-8').send(`\n\n\n${JSON.stringify({ resultCount: rows.length, results: rows })}\n`);
    });
  });
  return { ...fake, env: { STORE_API_URL: fake.url }, byUpc, byIsrc, failures, requestsTo: (path) => fake.requests.filter((r) => r.path === path) };
}
