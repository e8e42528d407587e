import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { ComposedDoc } from '../../shared/canonical/compose-doc.ts';
import { type RefFacts, composeFromFacts, factsKey, stableJson, withAbsorbed } from '../../shared/canonical/doc-facts.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { canonicalCommands } from './canonical-commands.ts';
import { type UserDataCounts, userDataOf, usersHoldingBoth } from './merge-impact.lookups.ts';

const Ref = z.object({ source: z.string(), external_id: z.string() });
const UserData = z.object({ favorites: z.number().int(), comments: z.number().int(), album_collection: z.number().int(), scrobbles: z.number().int() });

/** What `POST …/merge?dry_run=true` answers: the merge as it would happen now, nothing appended. */
export const MergePreview = z.object({
  dry_run: z.literal(true),
  kind: z.enum(['artist', 'album', 'track']),
  /** The ends of the two ids' merge chains: the entities the merge acts on. */
  target_id: z.string(),
  source_id: z.string(),
  refs_moved: z.array(Ref),
  /** The events the merge would append, in order, each with its stream (their `at` is the preview's). */
  events: z.array(z.object({ stream_id: z.string(), type: z.string(), data: z.record(z.string(), z.unknown()) })),
  /** User data keyed by the source that the merge re-points onto the target. */
  user_data: UserData,
  conflicts: z.object({
    /** Fields both report differently: the target's, the source's, and the value the merged doc keeps. */
    fields: z.array(z.object({ field: z.string(), target: z.unknown(), source: z.unknown(), kept: z.unknown() })),
    /** Users with a favorite (or a collected album) on each side: they hold the target twice afterwards. */
    favorites: z.number().int(),
    album_collection: z.number().int(),
  }),
});
export type MergePreview = z.infer<typeof MergePreview>;

/** Fields of a composed doc that are bookkeeping, not a source's claim. */
const NOT_COMPARED = new Set(['name_folded', 'sources', 'source_count']);

export async function previewMerge(ctx: AppContext, actor: string, kind: Kind, targetId: string, sourceId: string): Promise<MergePreview> {
  const commands = canonicalCommands(ctx, actor);
  const plan = await commands.mergePlan(kind, targetId, sourceId);
  const events = await commands.previewPlan(plan);
  const rows = await ctx.db.selectFrom('canonical_docs').select(['id', 'facts']).where('id', 'in', [plan.target, plan.source]).execute();
  const factsOf = (id: string) => (rows.find((r) => r.id === id)?.facts ?? {}) as RefFacts;
  const merged = composeFromFacts(withAbsorbed(factsOf(plan.target), factsOf(plan.source), plan.refs.map((r) => factsKey(r.source, r.external_id))));
  const holding = await usersHoldingBoth(ctx.db, kind, plan.target, plan.source);
  const userData: UserDataCounts = await userDataOf(ctx.db, kind, plan.source);
  return {
    dry_run: true,
    kind,
    target_id: plan.target,
    source_id: plan.source,
    refs_moved: plan.refs,
    events: events.map(({ stream_id, type, data }) => ({ stream_id, type, data: data as Record<string, unknown> })),
    user_data: userData,
    conflicts: { fields: fieldConflicts(composeFromFacts(factsOf(plan.target)), composeFromFacts(factsOf(plan.source)), merged), ...holding },
  };
}

function fieldConflicts(target: ComposedDoc, source: ComposedDoc, merged: ComposedDoc) {
  const present = (v: unknown) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0);
  return Object.keys(merged)
    .filter((field) => !NOT_COMPARED.has(field))
    .map((field) => ({ field, target: target[field as keyof ComposedDoc], source: source[field as keyof ComposedDoc], kept: merged[field as keyof ComposedDoc] }))
    .filter((c) => present(c.target) && present(c.source) && stableJson(c.target) !== stableJson(c.source));
}
