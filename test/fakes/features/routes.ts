import type { Express, Request, Response } from 'express';
import { fixtureJson } from '../harness.ts';

/** What the fake holds on one recording: its low-level and high-level documents (either may be missing). */
export interface FakeRecording {
  lowlevel: Record<string, unknown> | null;
  highlevel: Record<string, unknown> | null;
}

export interface FeaturesState {
  recordings: Map<string, FakeRecording>;
  /** The most recordings one bulk request may name (the provider's is 25). */
  maxRecordings: number;
  /** Statuses the next requests answer instead. */
  failures: number[];
}

/** `a.b.c` out of a document, for the bulk `features=` selection. */
function pick(doc: Record<string, unknown>, paths: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const parts = path.split('.');
    let value: unknown = doc;
    for (const part of parts) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    if (value === undefined) continue;
    let into = out;
    for (const part of parts.slice(0, -1)) into = (into[part] ??= {}) as Record<string, unknown>;
    into[parts.at(-1)!] = value;
  }
  return out;
}

/**
 * The AcousticBrainz API v1: bulk `/api/v1/{low,high}-level?recording_ids=a;b[:offset]` (only the
 * recordings it holds, each under its submission offset; more than `maxRecordings` is the recorded
 * 400), and the single-recording `/api/v1/{mbid}/{low,high}-level` (404 when it has none).
 */
export function featuresRoutes(state: FeaturesState) {
  const notFound = fixtureJson('acousticbrainz', 'error.404.not-found.json');
  const tooMany = fixtureJson<{ message: string }>('acousticbrainz', 'error.400.too-many-recordings.json');
  const failed = (res: Response) => {
    const status = state.failures.shift();
    if (status === undefined) return false;
    res.status(status).json({ message: 'failure' });
    return true;
  };
  const docOf = (mbid: string, level: 'lowlevel' | 'highlevel') => state.recordings.get(mbid.toLowerCase())?.[level] ?? null;
  return (app: Express) => {
    for (const level of ['lowlevel', 'highlevel'] as const) {
      const path = level === 'lowlevel' ? 'low-level' : 'high-level';
      app.get(`/api/v1/${path}`, (req: Request, res: Response) => {
        if (failed(res)) return;
        const ids = String(req.query.recording_ids ?? '').split(';').filter(Boolean);
        if (ids.length > state.maxRecordings) {
          res.status(400).json({ message: tooMany.message.replace(/\d+/, String(state.maxRecordings)) });
          return;
        }
        const features = typeof req.query.features === 'string' ? req.query.features.split(';') : null;
        const body: Record<string, Record<string, unknown>> = {};
        for (const entry of ids) {
          const [mbid, offset = '0'] = entry.split(':');
          const doc = docOf(mbid!, level);
          if (doc && offset === '0') body[mbid!] = { [offset]: features ? pick(doc, features) : doc };
        }
        res.json(body);
      });
      app.get(`/api/v1/:mbid/${path}`, (req: Request, res: Response) => {
        if (failed(res)) return;
        const doc = docOf(String(req.params.mbid), level);
        if (doc) res.json(doc);
        else res.status(404).json(notFound);
      });
    }
  };
}
