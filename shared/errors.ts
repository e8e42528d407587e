/**
 * Domain errors carry their HTTP status; one error middleware renders them as `{detail}`.
 * Nothing else decides an error's status.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** Extra headers for the response (Retry-After on throttling). */
  readonly headers: Record<string, string> = {};
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
  /** Tells the client when to try again (whole seconds, at least one). */
  protected retryAfter(seconds: number): void {
    this.headers['Retry-After'] = String(Math.max(1, Math.ceil(seconds)));
  }
}

export class BadRequest extends DomainError {
  readonly status = 400;
}
export class Unauthorized extends DomainError {
  readonly status = 401;
  constructor(message = 'Not authenticated') {
    super(message);
  }
}
export class Forbidden extends DomainError {
  readonly status = 403;
  constructor(message = 'Forbidden') {
    super(message);
  }
}
export class NotFound extends DomainError {
  readonly status = 404;
  constructor(message = 'Not found') {
    super(message);
  }
}
export class Conflict extends DomainError {
  readonly status = 409;
}
export class PreconditionFailed extends DomainError {
  readonly status = 412;
}
export class PayloadTooLarge extends DomainError {
  readonly status = 413;
}
export class UnsupportedMediaType extends DomainError {
  readonly status = 415;
}
/** A business-rule rejection the interface maps to 422 (a thin radio pool), not a validation failure. */
export class Unprocessable extends DomainError {
  readonly status = 422;
}
export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfter(retryAfterSeconds);
  }
}
/** The upstream failed (transport, 5xx, unparseable answer). */
export class UpstreamError extends DomainError {
  readonly status = 502;
  constructor(
    readonly service: string,
    message: string,
  ) {
    super(`${service}: ${message}`);
  }
}
/** The upstream answered, and there is nothing there. Distinct from a fault: never retried. */
export class UpstreamNotFound extends DomainError {
  readonly status = 404;
  constructor(
    readonly service: string,
    message: string,
  ) {
    super(`${service}: ${message}`);
  }
}
export class NotConfigured extends DomainError {
  readonly status = 503;
}

/** What went wrong, for a log line or a status report: an error's message, or the thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The service cannot answer now (its database is down or saturated): worth retrying shortly. */
export class ServiceUnavailable extends DomainError {
  readonly status = 503;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfter(retryAfterSeconds);
  }
}

/** The upstream did not answer in time: a fault like any other, told apart for callers that report why. */
export class UpstreamTimeout extends UpstreamError {}
