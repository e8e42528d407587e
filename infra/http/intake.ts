import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { NotFound, PayloadTooLarge, Unauthorized, UnsupportedMediaType } from '../../shared/errors.ts';
import type { Config } from '../config.ts';
import { RequestValidationError } from './errors.ts';

type TextSetting = { [K in keyof Config]-?: Config[K] extends string | undefined ? K : never }[keyof Config];

/**
 * A machine-to-machine delivery (a webhook): no session cookie, no browser Origin, and a body in
 * the format its sender fixes. A shared secret stands in for the session. These routes are mounted
 * ahead of the app's CSRF and JSON-only rules (infra/http/app.ts), and are the only ones that are.
 */
export interface Intake {
  /** The setting holding the secret; unset, the route answers 404 as if it did not exist. */
  secret: TextSetting;
  /** The header that may carry the secret; `?token=` may carry it instead (senders that only take a URL). */
  header: string;
  /** `json`: a JSON body; `form`: multipart/form-data, handed to the route as its text fields (files dropped). */
  body: 'json' | 'form';
  /** The most a delivery may weigh; past it 413. */
  maxBytes: number;
  /**
   * Form fields holding JSON text (a `payload`), parsed before the route sees them, so that the
   * edge's checks on every input string and the route's schema see the values inside. Each is at
   * most MAX_JSON_FIELD_BYTES; past it 413.
   */
  jsonFields?: readonly string[];
}

export const MAX_JSON_FIELD_BYTES = 64 * 1024;

/** Secret first (an unauthenticated body is never read), then the body within its cap. */
export function intakeGuard(config: Config, intake: Intake): RequestHandler[] {
  const body = intake.body === 'form' ? formBody(intake.maxBytes, intake.jsonFields ?? []) : [express.json({ limit: intake.maxBytes, type: () => true })];
  return [secretCheck(config, intake), ...body];
}

function secretCheck(config: Config, intake: Intake): RequestHandler {
  const expected = config[intake.secret] as string | undefined;
  return (req: Request, _res: Response, next: NextFunction) => {
    if (expected === undefined) return next(new NotFound('Not Found'));
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    const given = req.get(intake.header) ?? token;
    if (given === undefined || !sameSecret(given, expected)) return next(new Unauthorized('Missing or wrong intake secret'));
    next();
  };
}

/** Compared as digests: equal lengths whatever was sent, and no early exit on the first differing byte. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** multipart/form-data parsed by the runtime's own parser (undici's `Response#formData`), from a body capped first. */
function formBody(maxBytes: number, jsonFields: readonly string[]): RequestHandler[] {
  const multipartOnly = (req: Request, _res: Response, next: NextFunction) =>
    next(req.is('multipart/form-data') ? undefined : new UnsupportedMediaType('Deliveries to this address are multipart/form-data'));
  const raw = express.raw({ limit: maxBytes, type: () => true });
  const fields = async (req: Request, _res: Response, next: NextFunction) => {
    let form: FormData;
    try {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      form = await new Response(body, { headers: { 'content-type': req.get('content-type')! } }).formData();
    } catch {
      return next(new RequestValidationError([{ loc: ['body'], msg: 'Malformed multipart/form-data body', type: 'multipart_invalid' }]));
    }
    const text: Record<string, unknown> = {};
    for (const [name, value] of form) if (typeof value === 'string') text[name] = value;
    for (const name of jsonFields) {
      const value = text[name];
      if (typeof value !== 'string') continue;
      if (Buffer.byteLength(value, 'utf8') > MAX_JSON_FIELD_BYTES) return next(new PayloadTooLarge(`Form field ${name} is larger than ${MAX_JSON_FIELD_BYTES} bytes`));
      try {
        text[name] = JSON.parse(value);
      } catch {
        return next(new RequestValidationError([{ loc: ['body', name], msg: 'JSON decode error', type: 'json_invalid' }]));
      }
    }
    req.body = text;
    next();
  };
  return [multipartOnly, raw, fields];
}
