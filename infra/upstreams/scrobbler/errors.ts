import { UpstreamError, UpstreamNotFound } from '../../../shared/errors.ts';

export const SERVICE = 'scrobbler';

/**
 * Codes the scrobbler documents as transient: 8 operation failed (backend hiccup), 11 service
 * offline, 16 temporarily unavailable, 29 rate limit exceeded. Only these are retried.
 */
export const RETRYABLE_CODES: ReadonlySet<number> = new Set([8, 11, 16, 29]);
/** 6: the user, artist, album or track asked for does not exist ("nothing there", not a fault). */
export const NOT_FOUND_CODE = 6;
/** 4 bad or unissued token, 9 invalid session key, 14 token not authorized, 15 token expired. */
export const AUTH_CODES: ReadonlySet<number> = new Set([4, 9, 14, 15]);

/** The scrobbler failed or refused; `code` is its numbered error when it sent one. */
export class ScrobblerFailure extends UpstreamError {
  constructor(
    readonly code: number | null,
    message: string,
  ) {
    super(SERVICE, code === null ? message : `error ${code}: ${message}`);
  }
  get retryable(): boolean {
    return this.code !== null && RETRYABLE_CODES.has(this.code);
  }
  get authRejected(): boolean {
    return this.code !== null && AUTH_CODES.has(this.code);
  }
}

/** Maps an error envelope to the error the caller sees. */
export function errorFromEnvelope(code: number, message: string): ScrobblerFailure | UpstreamNotFound {
  if (code === NOT_FOUND_CODE) return new UpstreamNotFound(SERVICE, message || 'not found');
  return new ScrobblerFailure(code, message || 'failed');
}
