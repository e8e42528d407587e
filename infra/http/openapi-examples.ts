import type { z } from 'zod';

type Json = Record<string, any>;

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2024-05-01T12:00:00.000Z',
  date: '2024-05-01',
  email: 'listener@example.org',
  uri: 'https://example.org/',
  url: 'https://example.org/',
  uuid: '0b8f6c6e-4d1f-4b8e-9a53-2f7f2d0c1a11',
};

/**
 * An example request body for the documentation and generated clients: the schema's own example or
 * default where it has one, else a plain value of each required field's type. Kept only when the
 * route's own schema accepts it, so no example ever shows a request the service would refuse.
 */
export function bodyExample(body: z.ZodType, json: Json): unknown {
  const example = sample(json);
  return example !== undefined && body.safeParse(example).success ? example : undefined;
}

function sample(schema: Json): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.map((b: Json) => sample(b)).find((value) => value !== undefined);
  switch (schema.type) {
    case 'object': {
      const properties: Record<string, Json> = schema.properties ?? {};
      const required: string[] = schema.required ?? Object.keys(properties);
      return Object.fromEntries(required.filter((name) => properties[name]).map((name) => [name, sample(properties[name]!)]).filter(([, value]) => value !== undefined));
    }
    case 'array':
      return schema.items ? Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items)) : [];
    case 'string': {
      const text = STRING_FORMATS[schema.format] ?? 'text'.padEnd(schema.minLength ?? 0, 'x');
      // A pattern this cannot guess: leave the field to another branch (often null) or out.
      return schema.pattern && !matches(schema.pattern, text) ? undefined : text;
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** JSON Schema patterns are ECMAScript ones, but one the engine refuses counts as not matching. */
function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}
