import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { DomainError } from '../../shared/errors.ts';
import { databaseUnavailable, isDatabaseUnavailable } from '../db/unavailable.ts';
import { log } from '../logger.ts';

export type Location = 'path' | 'query' | 'body' | 'header' | 'cookie';

export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A request that failed its declared schema: answered 422 with one entry per problem. */
export class RequestValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super('request validation failed');
  }
}

/** One entry per field: the first problem zod found there (`2^63` is both too big and not an integer). */
export function validationDetails(where: Location, error: z.ZodError, input: unknown): ValidationDetail[] {
  const seen = new Set<string>();
  const firstPerField = error.issues.filter((issue) => {
    const key = JSON.stringify(issue.path.map(String));
    return !seen.has(key) && seen.add(key);
  });
  return firstPerField.map((issue) => {
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    return {
      loc: [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      msg: missing ? 'Field required' : issue.message,
      type: missing ? 'missing' : issue.code,
    };
  });
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The one place that turns errors into responses: `{detail}` and a status, never a stack trace. */
export function errorMiddleware(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof RequestValidationError) {
    res.status(422).json({ detail: error.detail });
    return;
  }
  if (isDatabaseUnavailable(error)) {
    log.warn('database unavailable', { method: req.method, path: req.path, error: (error as Error).message });
    error = databaseUnavailable();
  }
  if (error instanceof DomainError) {
    res.set(error.headers).status(error.status).json({ detail: error.message });
    return;
  }
  const httpError = error as { type?: string; status?: unknown; expose?: boolean; message?: string };
  if (httpError?.type === 'entity.parse.failed') {
    res.status(422).json({ detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] });
    return;
  }
  if (httpError?.type === 'entity.too.large') {
    res.status(413).json({ detail: 'Request body too large' });
    return;
  }
  // The client's fault as express and body-parser see it (a malformed path escape, an unknown
  // charset or content encoding): its own status and message, which carry no internals.
  if (typeof httpError?.status === 'number' && httpError.status >= 400 && httpError.status < 500 && httpError.expose !== false) {
    res.status(httpError.status).json({ detail: httpError.message || 'Bad request' });
    return;
  }
  log.error('unhandled error', { method: req.method, path: req.path, error: error instanceof Error ? error.stack : String(error) });
  res.status(500).json({ detail: 'Internal server error' });
}
