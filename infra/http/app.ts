import cookieParser from 'cookie-parser';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { z } from 'zod';
import { Forbidden, UnsupportedMediaType } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { unitOfWork } from '../projections/read-models.ts';
import { authorize } from './auth.ts';
import type { Route } from './define-route.ts';
import { clientCors } from './cors.ts';
import { docsRouter } from './docs.ts';
import { RequestValidationError, type Location, errorMiddleware, validationDetails } from './errors.ts';
import { inputProblems } from './input-guard.ts';
import { JsonText } from './json-text.ts';
import { intakeGuard } from './intake.ts';
import { openApiDocument } from './openapi.ts';
import type { RequestActivity } from './request-activity.ts';
import { requestLog } from './request-log.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The HTTP surface: every declared route, /openapi.json, /docs, and the error conventions. */
export function createApp(ctx: AppContext, routes: Route[], activity: RequestActivity): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (ctx.config.TRUSTED_PROXY) app.set('trust proxy', ctx.config.TRUSTED_PROXY);
  app.use(requestLog);
  app.use(activity.middleware);
  app.use(clientCors(ctx.config.CLIENT_URL));
  app.use(cookieParser());
  // Webhooks come without a session or an Origin, in their sender's body format: their shared secret
  // stands in for the CSRF and JSON-only rules below, which every other route keeps.
  for (const route of routes) if (route.intake) app[route.method](expressPath(route.path), ...intakeGuard(ctx.config, route.intake), handlerFor(ctx, route));
  app.use(csrfGuard(ctx.config.CLIENT_URL));
  app.use(express.json({ limit: '1mb', type: () => true }));

  // Built at the first request for it, not at start: converting every route's schemas costs seconds.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get('/openapi.json', (_req, res) => {
    res.json((document ??= openApiDocument(routes)));
  });
  app.use(docsRouter());
  app.use(routedBySegment(routes.filter((route) => !route.intake).map((route) => ({ route, handler: handlerFor(ctx, route) }))));

  app.use(notFound(routes));
  app.use(errorMiddleware);
  return app;
}

function handlerFor(ctx: AppContext, route: Route) {
  return async (req: Request, res: Response) => {
    const unsafe = inputProblems(req);
    if (unsafe.length > 0) throw new RequestValidationError(unsafe);
    const user = await authorize(req, route.access, ctx.sessions);
    res.locals.user = user?.username;
    const params = parse('path', route.params, req.params);
    const query = parse('query', route.query, req.query);
    const body = route.body ? parse('body', route.body, req.body) : undefined;
    const input = { params, query, body, user: user as never, ctx, req, res };
    // Read-your-writes: the handler runs in a unit of work that waits for the projectors (and
    // reactors) of what it appended; a write-then-answer route reads its answer after that.
    const written = await unitOfWork(ctx.readModels, () => route.handler(input), { reactions: true });
    const result = route.answer ? await route.answer(input, written) : written;
    if (route.raw || res.headersSent) return;
    if (ctx.validateResponses) {
      const checked = route.response.safeParse(result instanceof JsonText ? JSON.parse(result.text) : result);
      if (!checked.success) throw new Error(`response of ${route.method} ${route.path} breaks its schema: ${checked.error.message}`);
    }
    res.status(route.status ?? 200);
    if (!(result instanceof JsonText)) return void res.json(result ?? null);
    // What res.json sets besides the body: application/json, and send adds the utf-8 charset.
    if (!res.get('Content-Type')) res.type('application/json');
    res.send(result.text);
  };
}

/** Collects every problem of one part of the request before answering 422. */
function parse(where: Location, schema: z.ZodType | undefined, input: unknown): unknown {
  if (!schema) return undefined;
  const value = where === 'body' && input === undefined ? undefined : input;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RequestValidationError(validationDetails(where, parsed.error, value));
  return parsed.data;
}

/**
 * The routes, one router per first path segment (`/library`, `/scrobbler`, ...), each holding its
 * routes in their declared order at their full paths. Express tries an app's routes one by one, and
 * with 280 of them a request to one declared late matched its path against most of the others
 * first; a lookup of the segment leaves it the few of its own area. Every path starts with a fixed
 * segment, so no route of one area can answer a path of another. Looked up in lower case, as
 * express matches paths by default.
 */
function routedBySegment(handled: { route: Route; handler: RequestHandler }[]): RequestHandler {
  const routers = new Map<string, Router>();
  for (const { route, handler } of handled) {
    const segment = firstSegment(route.path);
    let router = routers.get(segment);
    if (!router) routers.set(segment, (router = express.Router()));
    router[route.method](expressPath(route.path), handler);
  }
  return (req, res, next) => {
    const router = routers.get(firstSegment(req.path));
    if (router) router(req, res, next);
    else next();
  };
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/** `/a/{id}` → `/a/:id`. */
function expressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/**
 * Cookie sessions need CSRF care: unsafe requests carry JSON only (a cross-site form cannot send
 * it without a preflight), and a browser Origin other than ours or the client's is refused.
 */
function csrfGuard(clientUrl: string) {
  const client = new URL(clientUrl).origin;
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!UNSAFE.has(req.method)) return next();
    const origin = req.get('origin');
    if (origin !== undefined && origin !== client && !isOwnOrigin(origin, req.get('host'))) {
      return next(new Forbidden('Cross-origin request refused'));
    }
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is('application/json')) return next(new UnsupportedMediaType('Request bodies must be application/json'));
    next();
  };
}

/**
 * The service's own pages (/docs) post with its own origin. The host decides, not the scheme: behind
 * a TLS-terminating proxy the browser says https while this process sees http.
 */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host;
  } catch {
    return false;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function notFound(routes: Route[]) {
  const patternOf = (path: string) => path.replace(/\/$/, '').split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+');
  const matchers = routes.map((r) => ({ method: r.method.toUpperCase(), pattern: new RegExp(`^${patternOf(r.path)}/?$`) }));
  return (req: Request, res: Response) => {
    const known = matchers.some((m) => m.pattern.test(req.path));
    if (known) res.status(405).json({ detail: 'Method Not Allowed' });
    else res.status(404).json({ detail: 'Not Found' });
  };
}
