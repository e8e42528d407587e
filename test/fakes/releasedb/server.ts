import type { Express } from 'express';
import { type Fake, fixtureJson, startFake } from '../harness.ts';

export type SearchRow = Record<string, unknown> & { id: number; barcode: string[] };

/**
 * A loopback releasedb (Discogs API): `/database/search?barcode=…&type=…` needs
 * `Authorization: Discogs token=<token>` (401 otherwise) and, like the real search, is fuzzy: it
 * answers every row of that type whose printed barcode holds the asked digits.
 */
export interface ReleasedbFake extends Fake {
  env: Record<string, string>;
  rows: SearchRow[];
}

/** The recorded search rows (masters), as release rows of a test's choosing. */
export const recordedRows = () => fixtureJson<{ results: SearchRow[] }>('discogs', 'database.search.type-master.json').results;

export async function startReleasedbFake(token = 'test-releasedb-token'): Promise<ReleasedbFake> {
  const rows: SearchRow[] = [];
  const digits = (s: string) => s.replace(/\D/g, '');
  const fake = await startFake((app: Express) => {
    app.get('/database/search', (req, res) => {
      if (req.headers.authorization !== `Discogs token=${token}`) {
        res.status(401).json({ message: 'You must authenticate to access this resource.' });
        return;
      }
      const wanted = digits(String(req.query.barcode ?? ''));
      const results = rows.filter((r) => r.type === req.query.type && wanted !== '' && r.barcode.some((b) => digits(b).includes(wanted)));
      res.json({ pagination: { page: 1, pages: 1, per_page: 50, items: results.length, urls: {} }, results });
    });
  });
  return { ...fake, env: { RELEASEDB_API_URL: fake.url, RELEASEDB_TOKEN: token }, rows };
}
