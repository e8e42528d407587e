import { z } from 'zod';

/**
 * Every integer a request carries has a range, documented in /openapi.json: an unbounded one
 * overflows somewhere below (a date, an `integer` column, an upstream). The helpers here demand
 * both ends, and a test over /openapi.json refuses an integer without them.
 */
export interface IntRange {
  min: number;
  max: number;
}

/** 1-based page numbers: far beyond any real listing, well inside every offset computation. */
export const PAGE: IntRange = { min: 1, max: 1_000_000 };
/** Row offsets. */
export const OFFSET: IntRange = { min: 0, max: 100_000_000 };
/** Unix seconds up to 9999-12-31T23:59:59Z, the last second an ISO date can spell. */
export const UNIX_SECONDS: IntRange = { min: 0, max: 253_402_300_799 };
/** A rolling window in days (a century); zero or less means all time where the route says so. */
export const WINDOW_DAYS: IntRange = { min: -36_500, max: 36_500 };
/** Positions and durations in milliseconds within one track: a signed 32-bit value (24.8 days). */
export const MILLISECONDS: IntRange = { min: 0, max: 2_147_483_647 };

/** A JSON body integer. */
export const bodyInt = ({ min, max }: IntRange) => z.number().int().min(min).max(max);

/** A path segment that is an integer. */
export const pathInt = ({ min, max }: IntRange) => z.coerce.number().int().min(min).max(max);

/** Query-string parameters: strings on the wire, typed in the handler and in the OpenAPI document. */
export const queryBool = (defaultValue: boolean) =>
  z.stringbool().default(defaultValue).meta({ type: 'boolean', default: defaultValue } as Record<string, unknown>);

export const queryInt = (defaultValue: number, range: IntRange) => pathInt(range).default(defaultValue);

export const optionalQueryInt = (range: IntRange) => pathInt(range).optional();

/** `page` (1-based) and `limit` query parameters with the interface's defaults. */
export const pageQuery = (defaultLimit: number, maxLimit = 500) => ({
  page: queryInt(1, PAGE),
  limit: queryInt(defaultLimit, { min: 1, max: maxLimit }),
});
