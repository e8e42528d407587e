import { type Server, createServer } from 'node:http';
import { type Server as NetServer, createServer as createNetServer } from 'node:net';
import type { Express } from 'express';

export interface HttpTimeouts {
  /** From a request's first byte to the end of its headers. */
  headersMs: number;
  /**
   * From a request's first byte to the end of its body: a client trickling its body is cut with a
   * 408. Only receiving counts, so a long response (a proxied audio stream) is never cut by it.
   */
  requestMs: number;
  /** An idle kept-alive connection is closed after this: longer than the usual proxy's 60 s, so the proxy closes first and never reuses a socket the service is closing. */
  keepAliveMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 };

/** The API's HTTP server, with every timeout set rather than left to Node's defaults. */
export function createHttpServer(app: Express, timeouts: HttpTimeouts = HTTP_TIMEOUTS): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node checks both only this often (30 s by default, which would let a slow body run for a minute).
      connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersMs / 4)),
    },
    app,
  );
  server.keepAliveTimeout = timeouts.keepAliveMs;
  return server;
}

/** Another program answers on the configured port: the operator's to fix, so one line and no stack. */
export class PortInUse extends Error {
  constructor(readonly port: number) {
    super(`port ${port} is already in use (set PORT)`);
  }
}

/**
 * Resolves once the server listens. express 5's `app.listen` hands a listen error to its callback
 * and keeps going, so the server is created and listened on here, where the error rejects.
 */
export function listen(server: NetServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUse(port) : error);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/**
 * Fails fast on a busy port, before the database opens and the read models catch up; the real
 * listen still reports a port taken in between.
 */
export async function refuseBusyPort(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await listen(probe, port, host);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/**
 * Stops listening, lets the requests in flight finish for up to `graceMs`, then cuts what is left (a
 * long audio stream). Idle kept-alive connections close at once, so clients reconnect elsewhere.
 */
export async function drain(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A kept-alive connection goes idle when its last request ends: close it then, not at the client's leisure.
  server.closeIdleConnections();
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, graceMs);
  });
  await Promise.race([closed, grace]);
  clearTimeout(timer);
  clearInterval(sweeper);
  await closed;
}
