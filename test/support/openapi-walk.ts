/**
 * Requests built from /openapi.json: every operation, every parameter and body field, with valid
 * values everywhere but in the one field under test. The walk of hostile inputs rests on it.
 */
export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  /** `METHOD /path`, as the interface spells operations. */
  name: string;
  params: { name: string; in: 'path' | 'query'; schema: JsonSchema }[];
  body?: JsonSchema;
  /** The statuses the operation documents. */
  statuses: Set<number>;
}

type Where = 'path' | 'query' | 'body';
/** One input of an operation: a path or query parameter, or a body field at any depth. */
export interface Field {
  in: Where;
  path: (string | number)[];
  schema: JsonSchema;
}

/** A value as it goes on the wire: URL text already percent-encoded, a repeated query parameter, or JSON. */
export type WireValue = { url: string } | { repeated: string[] } | { json: unknown };
/** Known valid values by parameter name (real ids, a username that exists). */
export type Known = (name: string, operation: Operation) => string | number | undefined;

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters: { name: string; in: string; schema: JsonSchema }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> }; responses: Record<string, unknown> }>>;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      name: `${method.toUpperCase()} ${path}`,
      params: op.parameters.filter((p) => p.in === 'path' || p.in === 'query') as Operation['params'],
      body: op.requestBody?.content['application/json']?.schema,
      statuses: new Set(Object.keys(op.responses).map(Number)),
    })),
  );
}

/** Every input of the operation, body fields at every depth (an array's first item stands for all). */
export function fieldsOf(op: Operation): Field[] {
  const fields: Field[] = op.params.map((p) => ({ in: p.in, path: [p.name], schema: p.schema }));
  const visit = (schema: JsonSchema, path: (string | number)[]) => {
    const shape = concrete(schema);
    for (const [name, property] of Object.entries(shape.properties ?? {})) {
      fields.push({ in: 'body', path: [...path, name], schema: property });
      visit(property, [...path, name]);
    }
    if (shape.items) visit(shape.items, [...path, 0]);
  };
  if (op.body) {
    fields.push({ in: 'body', path: [], schema: op.body });
    visit(op.body, []);
  }
  return fields;
}

/** A value the schema accepts, so that a request fails (if at all) on the field under test. */
export function validValue(schema: JsonSchema, name: string, op: Operation, known: Known): unknown {
  const fromName = known(name, op);
  const shape = concrete(schema);
  if (fromName !== undefined && (shape.type === 'string' || shape.type === 'integer' || shape.anyOf)) return fromName;
  if (shape.enum) return shape.enum[0];
  if (shape.default !== undefined) return shape.default;
  switch (shape.type) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, shape.minimum ?? 1, (shape.exclusiveMinimum ?? 0) + 1), shape.maximum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      return shape.pattern?.includes('\\d') ? '3135556' : 'walker';
    case 'array':
      return shape.items ? [validValue(shape.items, name, op, known)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(shape.properties ?? {}).map(([key, property]) => [key, validValue(property, key, op, known)]));
    default:
      return undefined;
  }
}

export type Kind = 'text' | 'integer' | 'structure';

/** What a field holds, to pick the hostile values that matter to it. */
export function kindOf(field: Field): Kind {
  const type = concrete(field.schema).type;
  if (type === 'integer' || type === 'number') return 'integer';
  return type === 'object' || type === 'array' || type === undefined ? 'structure' : 'text';
}

/** The documented ends of an integer field: the values that pass validation and reach the code below it. */
export function boundsOf(field: Field): number[] {
  const { minimum, maximum } = concrete(field.schema);
  return [minimum, maximum].filter((n): n is number => n !== undefined);
}

/** The first alternative of a nullable or union schema that is not `null`. */
function concrete(schema: JsonSchema): JsonSchema {
  if (!schema.anyOf) return schema;
  const first = schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!;
  return concrete(first);
}

/** The request for `op` with `overrides` (keyed by `fieldKey`) in place of valid values. */
export function requestFor(op: Operation, known: Known, overrides: Map<string, WireValue>): { method: string; url: string; body?: string } {
  const wire = (where: Where, name: string, schema: JsonSchema): WireValue | undefined => {
    const override = overrides.get(fieldKey({ in: where, path: [name], schema }));
    if (override) return override;
    const value = validValue(schema, name, op, known);
    return value === undefined ? undefined : { url: encodeURIComponent(String(value)) };
  };
  let url = op.path;
  const query: string[] = [];
  for (const p of op.params) {
    const value = wire(p.in, p.name, p.schema);
    const text = value === undefined ? [] : 'repeated' in value ? value.repeated : 'url' in value ? [value.url] : [encodeURIComponent(JSON.stringify(value.json))];
    if (p.in === 'path') url = url.replace(`{${p.name}}`, text.join(','));
    else for (const t of text) query.push(`${encodeURIComponent(p.name)}=${t}`);
  }
  if (query.length > 0) url += `?${query.join('&')}`;
  if (!op.body) return { method: op.method, url };
  return { method: op.method, url, body: JSON.stringify(bodyWith(op, known, overrides)) };
}

function bodyWith(op: Operation, known: Known, overrides: Map<string, WireValue>): unknown {
  const whole = overrides.get(fieldKey({ in: 'body', path: [], schema: {} }));
  if (whole) return 'json' in whole ? whole.json : undefined;
  const body = validValue(op.body!, '', op, known) as Record<string, unknown>;
  for (const [key, value] of overrides) {
    if (!key.startsWith('body:') || !('json' in value)) continue;
    setAt(body, JSON.parse(key.slice('body:'.length)) as (string | number)[], value.json);
  }
  return body;
}

function setAt(target: unknown, path: (string | number)[], value: unknown): void {
  let node = target as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  node[path.at(-1)!] = value;
}

export const fieldKey = (field: Pick<Field, 'in' | 'path'> & Partial<Field>) =>
  field.in === 'body' ? `body:${JSON.stringify(field.path)}` : `${field.in}:${field.path[0]}`;
