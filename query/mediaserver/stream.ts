import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { log } from '../../infra/logger.ts';
import { SERVER_SERVICE } from '../../infra/upstreams/mediaserver/errors.ts';
import type { UpstreamStream } from '../../infra/upstreams/mediaserver/media.ts';
import { UpstreamError } from '../../shared/errors.ts';

/**
 * Bytes from the media server are served from this service's origin: the browser must take them
 * for what the declared type says (nosniff), and should a server ever declare HTML or SVG, the
 * sandbox keeps its scripts away from the session. Set first, so error answers carry them too.
 */
export function markProxied(res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', 'sandbox');
}

/** A whole image (already checked to be `image/*`), cacheable by the browser for `maxAgeSeconds`. */
export function sendImage(res: Response, image: { type: string; body: Buffer }, maxAgeSeconds: number): void {
  res.status(200).setHeader('Content-Type', image.type).setHeader('Cache-Control', `private, max-age=${maxAgeSeconds}`);
  res.end(image.body);
}

/**
 * Streams an upstream answer to the client with backpressure (pipeline waits on the socket's
 * drain). A client that goes away aborts the upstream request, so the server stops reading the
 * file. An upstream that sends nothing for `idleMs` while the client is ready for more is aborted
 * too: before its headers that is a 502, after them the response is cut. Errors before the first
 * byte reach the error middleware; after it, the socket is cut.
 */
export async function proxyStream(req: Request, res: Response, open: (signal: AbortSignal) => Promise<UpstreamStream>, idleMs: number): Promise<void> {
  markProxied(res);
  const abort = new AbortController();
  const stop = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.once('close', stop);
  req.once('aborted', stop);
  const idle = idleWatch(res, idleMs, () => abort.abort());
  try {
    const upstream = await open(abort.signal).catch((error: unknown) => {
      if (idle.fired) throw new UpstreamError(SERVER_SERVICE, `sent nothing for ${idleMs / 1000} s`);
      throw error;
    });
    if (abort.signal.aborted) {
      upstream.body.destroy();
      return;
    }
    res.status(upstream.status);
    for (const [name, value] of Object.entries(upstream.headers)) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'private, no-store');
    try {
      await pipeline(upstream.body, idle.meter, res, { signal: abort.signal });
    } catch (error) {
      if (idle.fired) log.warn('mediaserver: stream stalled, cut', { path: req.path, idleMs });
      else if (!abort.signal.aborted) log.warn('mediaserver: stream broke off', { path: req.path, error: (error as Error).message });
      upstream.body.destroy();
    }
  } finally {
    idle.stop();
  }
}

/**
 * Fires when no byte has come through `meter` for `idleMs`. Time the client spends not reading
 * (a paused player fills the socket) does not count: the upstream is not being asked then.
 */
function idleWatch(res: Response, idleMs: number, onIdle: () => void) {
  const state = { fired: false };
  const timer = setTimeout(function check() {
    if (res.writableNeedDrain) return void timer.refresh();
    state.fired = true;
    onIdle();
  }, idleMs);
  const meter = new Transform({
    transform(chunk, _encoding, done) {
      if (!state.fired) timer.refresh();
      done(null, chunk);
    },
  });
  return {
    meter,
    get fired() {
      return state.fired;
    },
    stop: () => clearTimeout(timer),
  };
}
