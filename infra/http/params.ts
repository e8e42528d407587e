import { z } from 'zod';

/** Query-string parameters: strings on the wire, typed in the handler and in the OpenAPI document. */
export const queryBool = (defaultValue: boolean) =>
  z.stringbool().default(defaultValue).meta({ type: 'boolean', default: defaultValue } as Record<string, unknown>);

export const queryInt = (defaultValue: number, bounds: { min?: number; max?: number } = {}) => {
  let schema = z.coerce.number().int();
  if (bounds.min !== undefined) schema = schema.min(bounds.min);
  if (bounds.max !== undefined) schema = schema.max(bounds.max);
  return schema.default(defaultValue);
};

export const optionalQueryInt = () => z.coerce.number().int().optional();
