import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { log } from '../logger.ts';

/** A caller's id is kept when it is a plain token: it lands in log lines and a response header. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One line per request: its id (the caller's `X-Request-Id`, or a new one, echoed either way), the
 * client address (`req.ip`: the forwarded one only from TRUSTED_PROXY), method, path without its
 * query (which may carry tokens), status, duration and user. Logged on close, so a request the client
 * gave up on still gets its line (`aborted`).
 */
export function requestLog(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  const given = req.get('x-request-id');
  const requestId = given && ACCEPTED_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  const path = req.path;
  res.once('close', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const aborted = res.writableFinished ? {} : { aborted: true };
    log.info('request', {
      request_id: requestId,
      address: req.ip ?? null,
      method: req.method,
      path,
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      user: res.locals.user ?? null,
      ...aborted,
    });
  });
  next();
}
