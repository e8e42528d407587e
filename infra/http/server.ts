import { type Server, createServer } from 'node:http';
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
