import type { CatalogErrorEnvelope } from './schemas.ts';

/**
 * The catalog protocol's error envelope: errors come back with HTTP 200 as
 * `{"error": {"type", "message", "code"}}`. Only "no data" means the thing is not there; quota and
 * busy answers are faults worth another attempt; anything else is a fault to report as is.
 */
export const ERROR_CODES = {
  QUOTA: 4,
  ITEMS_LIMIT_EXCEEDED: 100,
  PERMISSION: 200,
  TOKEN_INVALID: 300,
  PARAMETER: 500,
  PARAMETER_MISSING: 501,
  QUERY_INVALID: 600,
  SERVICE_BUSY: 700,
  DATA_NOT_FOUND: 800,
} as const;

export type EnvelopeVerdict = 'not_found' | 'retryable' | 'fault';

const RETRYABLE = new Set<number>([ERROR_CODES.QUOTA, ERROR_CODES.SERVICE_BUSY]);

export function classifyError(error: CatalogErrorEnvelope['error']): EnvelopeVerdict {
  if (error.code === ERROR_CODES.DATA_NOT_FOUND) return 'not_found';
  if (error.code !== undefined && RETRYABLE.has(error.code)) return 'retryable';
  return 'fault';
}

/** A short, secret-free description for logs and `{detail}`. */
export function describeError(error: CatalogErrorEnvelope['error']): string {
  const code = error.code === undefined ? '' : ` ${error.code}`;
  return `error${code} (${error.type ?? 'Exception'}: ${error.message ?? 'no message'})`;
}

/** The public API allows about 50 requests every 5 seconds per client address. */
export const CATALOG_MIN_INTERVAL_MS = 100;

/** Largest page the list endpoints serve in one request. */
export const CATALOG_PAGE_LIMIT = 100;

/** `2001-03-07` → 2001; the API writes `0000-00-00` for an unknown date. */
export function yearOf(releaseDate: string | undefined): number | undefined {
  const year = Number(releaseDate?.slice(0, 4));
  return Number.isInteger(year) && year > 0 ? year : undefined;
}

/** `album`, `single`, `ep`, `compile` → the metabase's primary types (a compilation is an album). */
export function releaseTypes(recordType: string | undefined): { primary_type?: string; secondary_types?: string[] } {
  switch (recordType) {
    case 'album':
      return { primary_type: 'Album' };
    case 'single':
      return { primary_type: 'Single' };
    case 'ep':
      return { primary_type: 'EP' };
    case 'compile':
      return { primary_type: 'Album', secondary_types: ['Compilation'] };
    default:
      return {};
  }
}
