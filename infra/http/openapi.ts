import { z } from 'zod';
import { ROLE_REQUIRED } from './auth.ts';
import type { Route } from './define-route.ts';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
};

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

function parameters(route: Route) {
  const out: Record<string, unknown>[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      out.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  }
  if (route.access !== 'public') out.push({ name: 'media_session', in: 'cookie', required: false, schema: { type: 'string' } });
  if (route.intake) out.push({ name: route.intake.header, in: 'header', required: false, schema: { type: 'string' }, description: 'the shared secret (or `?token=`)' });
  return out;
}

function operation(route: Route) {
  const status = String(route.status ?? 200);
  const body = { 'application/json': { schema: jsonSchema(route.response, 'output') } };
  const responses: Record<string, unknown> = {
    [status]: {
      description: 'Successful response',
      ...(route.responseHeaders ? { headers: responseHeaders(route.responseHeaders) } : {}),
      content: body,
    },
    '422': { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } },
  };
  if (route.access !== 'public') responses['401'] = errorResponse('No valid session');
  const roleRequired = ROLE_REQUIRED[route.access];
  if (roleRequired) responses['403'] = errorResponse(roleRequired);
  for (const [code, description] of Object.entries(route.errors ?? {})) responses[code] = errorResponse(description);
  for (const [code, description] of Object.entries(route.alsoAnswers ?? {})) responses[code] = { description, content: body };
  return {
    operationId: `${route.method}_${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: parameters(route),
    ...(route.body ? { requestBody: { required: true, content: { [bodyType(route)]: { schema: jsonSchema(route.body, 'input') } } } } : {}),
    responses,
    ...(route.access !== 'public' ? { security: [{ cookieSession: [] }] } : {}),
  };
}

/** JSON everywhere but on the intake of a sender that posts forms. */
const bodyType = (route: Route) => (route.intake?.body === 'form' ? 'multipart/form-data' : 'application/json');

function responseHeaders(headers: NonNullable<Route['responseHeaders']>) {
  return Object.fromEntries(Object.entries(headers).map(([name, { description, type }]) => [name, { description, schema: { type } }]));
}

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorMessage' } } } };
}

/** The OpenAPI 3.1 document, generated from the same declarations that validate requests. */
export function openApiDocument(routes: Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Music library service',
      version: '0.1.0',
      description: 'A self-hosted personal music library: one canonical catalog merged from your media server, listening history, streaming account and the open music databases.',
    },
    paths,
    components: {
      schemas: { HTTPValidationError: validationError, ErrorMessage: errorBody },
      securitySchemes: { cookieSession: { type: 'apiKey', in: 'cookie', name: 'media_session' } },
    },
  };
}
