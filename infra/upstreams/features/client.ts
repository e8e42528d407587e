import type { z } from 'zod';
import { UpstreamError } from '../../../shared/errors.ts';
import type { Config } from '../../config.ts';
import { createUpstreamClient } from '../http-client.ts';
import { HighLevelDoc, LowLevelDoc, type RecordingFeatures } from './schemas.ts';

export const FEATURES_SERVICE = 'features';
/** The provider's documented bulk limit; a lower one it states in a 400 is adopted instead. */
export const DEFAULT_BATCH_SIZE = 25;
/** Low-level descriptors the backfill keeps: the whole document is megabytes per recording. */
const LOW_LEVEL_FEATURES = 'rhythm.bpm;tonal.key_key;tonal.key_scale';
const TOO_MANY = /more than (\d+) recordings/i;

/** The provider refused a request for naming more recordings than it allows at once. */
class TooManyRecordings extends Error {
  constructor(readonly max: number) {
    super(`more than ${max} recordings per request`);
  }
}

/**
 * The features database (AcousticBrainz API v1): bulk `GET /api/v1/low-level` and
 * `/api/v1/high-level` by `recording_ids` (`;`-separated MBIDs). Recordings it does not hold are
 * absent from the answer (a 404 means none of them). A 400 "More than N recordings not allowed"
 * lowers the batch size to N for this client and the request is split.
 */
export function createFeaturesClient(options: { baseUrl: string; retryBaseMs?: number }) {
  const http = createUpstreamClient({ service: FEATURES_SERVICE, baseUrl: options.baseUrl, retryBaseMs: options.retryBaseMs });
  let batchSize = DEFAULT_BATCH_SIZE;

  async function bulk<T>(path: string, ids: string[], schema: z.ZodType<T>, features?: string): Promise<Map<string, T>> {
    const res = await http.request('GET', path, { searchParams: { recording_ids: ids.join(';'), features }, allowStatuses: [400, 404] });
    const found = new Map<string, T>();
    if (res.status === 404) return found;
    const body = jsonOf(res.body, path);
    if (res.status === 400) {
      const max = TOO_MANY.exec(String((body as { message?: unknown })?.message ?? ''));
      if (max) throw new TooManyRecordings(Number(max[1]));
      throw new UpstreamError(FEATURES_SERVICE, `GET ${path} answered 400`);
    }
    const byId = (body ?? {}) as Record<string, unknown>;
    for (const id of ids) {
      const submissions = byId[id] ?? byId[id.toLowerCase()];
      if (!submissions || typeof submissions !== 'object') continue;
      // Several submissions of one recording: the first (offset 0) is the one the provider serves by default.
      const first = Object.keys(submissions).sort((a, b) => Number(a) - Number(b))[0];
      const parsed = first === undefined ? undefined : schema.safeParse((submissions as Record<string, unknown>)[first]);
      if (parsed?.success) found.set(id, parsed.data);
    }
    return found;
  }

  async function chunk(ids: string[]): Promise<Map<string, RecordingFeatures>> {
    const [low, high] = await Promise.all([bulk('/api/v1/low-level', ids, LowLevelDoc, LOW_LEVEL_FEATURES), bulk('/api/v1/high-level', ids, HighLevelDoc)]);
    const out = new Map<string, RecordingFeatures>();
    for (const id of ids) {
      if (low.has(id) || high.has(id)) out.set(id, { lowlevel: low.get(id) ?? null, highlevel: high.get(id) ?? null });
    }
    return out;
  }

  return {
    /** How many recordings one request may name (lowered when the provider says so). */
    get batchSize() {
      return batchSize;
    },
    /** The features of each recording the provider holds; recordings it does not hold are absent. */
    async lookup(ids: string[]): Promise<Map<string, RecordingFeatures>> {
      const out = new Map<string, RecordingFeatures>();
      let rest = [...new Set(ids)];
      while (rest.length > 0) {
        const part = rest.slice(0, batchSize);
        try {
          for (const [id, features] of await chunk(part)) out.set(id, features);
          rest = rest.slice(part.length);
        } catch (error) {
          if (!(error instanceof TooManyRecordings)) throw error;
          if (error.max < 1 || error.max >= part.length) throw new UpstreamError(FEATURES_SERVICE, `refused ${part.length} recordings: ${error.message}`);
          batchSize = error.max;
        }
      }
      return out;
    },
  };
}

function jsonOf(body: Buffer, path: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamError(FEATURES_SERVICE, `GET ${path} answered an unexpected body`);
  }
}

export type FeaturesClient = ReturnType<typeof createFeaturesClient>;

const clients = new WeakMap<Config, FeaturesClient>();

/** The process's client: the batch size it learnt holds for every run. */
export function featuresClient(config: Config): FeaturesClient {
  let client = clients.get(config);
  if (!client) {
    client = createFeaturesClient({ baseUrl: config.FEATURES_API_URL, retryBaseMs: config.UPSTREAM_PACING === 'real' ? 1000 : 10 });
    clients.set(config, client);
  }
  return client;
}
