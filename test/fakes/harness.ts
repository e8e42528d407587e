import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';

/**
 * Starts fake upstream servers on loopback and records what reaches them, so that tests assert on
 * the outgoing request (path, query, auth headers, body) and not only on what the client returns.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed for JSON and form bodies, text otherwise, undefined when empty. */
  body: unknown;
  rawBody: string;
  /** Date.now() on arrival, for tests that measure pacing and backoff. */
  at: number;
}

export interface Fake {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFake(routes: Express | ((app: Express) => void)): Promise<Fake> {
  const requests: RecordedRequest[] = [];
  const root = express();
  root.use(recordInto(requests));
  root.use(isApp(routes) ? routes : withRoutes(routes));
  const server = createServer(root);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Clients keep connections alive; without this close() waits for them to idle out.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

// An express app is itself a function, so tell it from a setup callback by its methods.
function isApp(routes: Express | ((app: Express) => void)): routes is Express {
  return 'listen' in routes;
}

function withRoutes(setup: (app: Express) => void): Express {
  const app = express();
  setup(app);
  return app;
}

/**
 * Reads the body itself and leaves it parsed on req.body; the stream is then finished, so any body
 * parser the fake installs passes it through.
 */
function recordInto(requests: RecordedRequest[]) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.originalUrl, 'http://fake');
    req.body = parseBody(rawBody, req.headers['content-type']);
    requests.push({
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: req.body,
      rawBody,
      at,
    });
    next();
  };
}

function parseBody(raw: string, contentType = ''): unknown {
  if (raw === '') return undefined;
  if (contentType.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  if (contentType.includes('json')) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

/** The checkout: two levels up from the sources, three from their build in dist/ (the demo runs the fakes). */
const repoRoot = [path.resolve(import.meta.dirname, '..', '..'), path.resolve(import.meta.dirname, '..', '..', '..')].find((dir) => existsSync(path.join(dir, 'test', 'fixtures')))!;

/** A recorded upstream payload from test/fixtures/upstream/<service>/ (provenance in SOURCES.md there), as text. */
export function fixture(service: string, file: string): string {
  return readFileSync(path.resolve(repoRoot, 'test', 'fixtures', 'upstream', service, file), 'utf8');
}

export function fixtureJson<T = unknown>(service: string, file: string): T {
  return JSON.parse(fixture(service, file)) as T;
}
