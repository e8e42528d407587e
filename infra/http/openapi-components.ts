import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

type Json = Record<string, unknown>;
const LOCAL_DEF = '#/$defs/';
const COMPONENT = '#/components/schemas/';

/**
 * Converts route schemas to JSON Schema, lifting every schema named with `.meta({ id })` into
 * `components.schemas` and pointing at it with `$ref`: generated clients get one named type per
 * resource instead of an anonymous copy per operation. A named schema whose request form differs
 * from its response form (defaults, transforms) gets a second component, `<id>Input`.
 */
export class ComponentSchemas {
  readonly schemas: Record<string, Json> = {};

  constructor(fixed: Record<string, Json>) {
    Object.assign(this.schemas, fixed);
  }

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const { $schema: _, $defs = {}, ...root } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json & { $defs?: Record<string, Json> };
    const names = new Map(Object.keys($defs).map((id) => [id, id]));
    // Twice: a component renamed in the first pass changes the refs of those that contain it.
    for (let pass = 0; pass < 2; pass++) {
      for (const [id, def] of Object.entries($defs)) {
        const taken = this.schemas[id];
        if (taken && !isDeepStrictEqual(taken, pointAt(def, names))) names.set(id, `${id}Input`);
      }
    }
    for (const [id, def] of Object.entries($defs)) this.schemas[names.get(id)!] = pointAt(def, names);
    return pointAt(root, names);
  }
}

/** The schema with its `#/$defs/<id>` refs pointing at the components they became. */
function pointAt(schema: Json, names: Map<string, string>): Json {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(LOCAL_DEF) ? COMPONENT + (names.get(value.slice(LOCAL_DEF.length)) ?? value.slice(LOCAL_DEF.length)) : value,
  ) as Json;
}
