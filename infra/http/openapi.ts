import { ROLE_REQUIRED } from './auth.ts';
import type { Route } from './define-route.ts';
import { ComponentSchemas } from './openapi-components.ts';
import { bodyExample } from './openapi-examples.ts';
import type { z } from 'zod';


const validationError = {
  type: 'object',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
          msg: { type: 'string' },
          type: { type: 'string' },
        },
        required: ['loc', 'msg', 'type'],
      },
    },
  },
};
const errorBody = { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] };

function parameters(route: Route, components: ComponentSchemas) {
  const out: Record<string, unknown>[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    if (!schema) continue;
    const json = components.convert(schema, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      out.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  }
  if (route.access !== 'public') out.push({ name: 'media_session', in: 'cookie', required: false, schema: { type: 'string' } });
  if (route.intake) out.push({ name: route.intake.header, in: 'header', required: false, schema: { type: 'string' }, description: 'the shared secret (or `?token=`)' });
  return out;
}

function operation(route: Route, components: ComponentSchemas) {
  const status = String(route.status ?? 200);
  const body = { 'application/json': { schema: components.convert(route.response, 'output') } };
  const responses: Record<string, unknown> = {
    [status]: {
      description: 'Successful response',
      ...(route.responseHeaders ? { headers: responseHeaders(route.responseHeaders) } : {}),
      content: body,
    },
    '422': { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } },
  };
  if (route.access !== 'public') responses['401'] = errorResponse('No valid session');
  // The CSRF guard of createApp: every unsafe method but a webhook intake's refuses a foreign Origin, and a body that is not JSON.
  const guarded = route.method !== 'get' && !route.intake;
  const forbidden = [ROLE_REQUIRED[route.access], guarded ? 'Cross-origin request refused (an Origin other than the service or CLIENT_URL)' : undefined].filter(Boolean);
  if (forbidden.length > 0) responses['403'] = errorResponse(forbidden.join('; or: '));
  if (guarded && route.body) responses['415'] = errorResponse('Request bodies must be application/json');
  for (const [code, description] of Object.entries(route.errors ?? {})) responses[code] = errorResponse(description);
  for (const [code, description] of Object.entries(route.alsoAnswers ?? {})) responses[code] = { description, content: body };
  return {
    operationId: `${route.method}_${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: parameters(route, components),
    ...(route.body ? { requestBody: requestBody(route, route.body, components) } : {}),
    responses,
    ...(route.access !== 'public' ? { security: [{ cookieSession: [] }] } : {}),
  };
}

function requestBody(route: Route, body: z.ZodType, components: ComponentSchemas) {
  const schema = components.convert(body, 'input');
  const example = bodyExample(body, schema);
  return { required: true, content: { [bodyType(route)]: { schema, ...(example !== undefined ? { example } : {}) } } };
}

/** JSON everywhere but on the intake of a sender that posts forms. */
const bodyType = (route: Route) => (route.intake?.body === 'form' ? 'multipart/form-data' : 'application/json');

function responseHeaders(headers: NonNullable<Route['responseHeaders']>) {
  return Object.fromEntries(Object.entries(headers).map(([name, { description, type }]) => [name, { description, schema: { type } }]));
}

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorMessage' } } } };
}

/** What each tag groups, for the generated documentation and clients. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  operations: 'Probes for load balancers, orchestrators and monitoring: unauthenticated and cheap',
  auth: 'Sign-in, sessions, registration and account administration',
  me: "The caller's own data: favorites, wishlist, owned albums, notes, stats and tasks",
  library: 'The merged library: artists, albums and tracks with their sources',
  canonical: 'Canonical entities, their external references, merges and maintenance',
  scrobbler: 'The listening-history service: link, mirror, dashboard and proxied calls',
  mediaserver: 'The media server: link, library mirror, playback and playlists',
  streamer: 'The streaming service: link and playlists',
  metabase: 'The open music database: proxied lookups and its cache',
  enrichment: 'Facts from the open sources, added to canonical entities as tasks',
  radio: 'Radio sessions picked from the library and listening history',
  assistant: 'Questions and playlists answered by a language model',
  monitor: 'Webhook intake from monitoring tools',
  admin: 'Administration: tasks, scrobbles, database statistics and the event log',
};

/** The OpenAPI 3.1 document, generated from the same declarations that validate requests. */
export function openApiDocument(routes: Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components = new ComponentSchemas({ HTTPValidationError: validationError, ErrorMessage: errorBody });
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operation(route, components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Music library service',
      version: '0.1.0',
      description: 'A self-hosted personal music library: one canonical catalog merged from your media server, listening history, streaming account and the open music databases.',
    },
    tags: [...new Set(routes.map((r) => r.tag))].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: { cookieSession: { type: 'apiKey', in: 'cookie', name: 'media_session' } },
    },
  };
}
