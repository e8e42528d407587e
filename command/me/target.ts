import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { SessionUser } from '../../shared/users.ts';
import { bodyInt } from '../../infra/http/params.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { findLiveRow } from '../../projectors/canonical/canonical-docs.reads.ts';
import { seedFromCatalog } from '../canonical/catalog-seed.ts';

/** What a POST to a personal list names: a canonical id, or a catalog id to seed one from (or both). */
export const TargetBody = z
  .object({
    canonical_id: z.string().min(1).max(64).nullish(),
    catalog_id: z
      .union([bodyInt({ min: 1, max: 999_999_999_999_999 }), z.string().regex(/^\d{1,20}$/, 'a catalog id is an integer')])
      .nullish(),
  })
  .refine((b) => b.canonical_id || (b.catalog_id !== undefined && b.catalog_id !== null), {
    message: 'canonical_id or catalog_id is required',
    path: ['canonical_id'],
  });
export type TargetBody = z.infer<typeof TargetBody>;

/**
 * The canonical id a body stands for. A known canonical id wins; otherwise the catalog id resolves
 * through the catalog provider, which seeds the canonical entity when it is missing.
 */
export async function targetId(ctx: AppContext, user: SessionUser, kind: Kind, body: TargetBody): Promise<string> {
  const catalogId = body.catalog_id ?? null;
  if (body.canonical_id && (catalogId === null || (await findLiveRow(ctx.db, kind, body.canonical_id)))) return body.canonical_id;
  if (catalogId === null) throw new NotFound(`${kind} not found`);
  return seedFromCatalog(ctx, kind, catalogId, user.username);
}
