import { z } from 'zod';

/** `page` (1-based) and `limit` query parameters with the interface's defaults. */
export const pageQuery = (defaultLimit: number, maxLimit = 500) => ({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
});

export const offsetOf = (page: number, limit: number) => (page - 1) * limit;
