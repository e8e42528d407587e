import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { log } from '../../infra/logger.ts';
import type { UpstreamStream } from '../../infra/upstreams/mediaserver/media.ts';

/**
 * Streams an upstream answer to the client with backpressure (pipeline waits on the socket's
 * drain). A client that goes away aborts the upstream request, so the server stops reading the
 * file. Errors before the first byte reach the error middleware; after it, the socket is cut.
 */
export async function proxyStream(req: Request, res: Response, open: (signal: AbortSignal) => Promise<UpstreamStream>): Promise<void> {
  const abort = new AbortController();
  const stop = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.once('close', stop);
  req.once('aborted', stop);
  const upstream = await open(abort.signal);
  if (abort.signal.aborted) {
    upstream.body.destroy();
    return;
  }
  res.status(upstream.status);
  for (const [name, value] of Object.entries(upstream.headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'private, no-store');
  try {
    await pipeline(upstream.body, res, { signal: abort.signal });
  } catch (error) {
    if (!abort.signal.aborted) log.warn('mediaserver: stream broke off', { path: req.path, error: (error as Error).message });
    upstream.body.destroy();
  }
}
