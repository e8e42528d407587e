import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import { findDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { idsEndingAt } from '../../projectors/canonical/merge-aliases.reads.ts';
import { clip, parseEntityRef } from '../../shared/assistant.ts';
import { NotFound } from '../../shared/errors.ts';
import { canonicalEventSchemas } from '../../shared/events/canonical.events.ts';
import { entityStream } from '../../shared/streams.ts';

/** The most events of an entity's history a prompt carries (the latest ones), and the size of one. */
const MAX_HISTORY_EVENTS = 80;
const MAX_EVENT_CHARS = 600;

const ENTITY_EVENT_TYPES = new Set<string>(Object.keys(canonicalEventSchemas));

/** How much the library holds: live entities and playable ones, per kind. */
export async function libraryCounts(db: Kysely<Database>): Promise<Record<string, { total: number; playable: number }>> {
  const rows = await db
    .selectFrom('canonical_docs')
    .select((eb) => ['kind', eb.fn.countAll<string>().as('total'), sql<string>`count(*) filter (where (sources->>'mediaserver') = 'true')`.as('playable')])
    .where(sql<boolean>`not tombstoned`)
    .groupBy('kind')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.kind, { total: Number(r.total), playable: Number(r.playable) }]));
}

/**
 * What the model needs to talk about one entity and say where each fact came from: its doc, its
 * refs, and the latest events of its history and of every id merged into it. Who did what stays
 * out (event metadata, the curator of a manual link): the prompt names no user.
 */
export async function entityContext(ctx: AppContext, ref: string): Promise<{ ref: string; text: string }> {
  const { kind, id } = parseEntityRef(ref);
  const doc = await findDoc(ctx.db, kind, id);
  if (!doc) throw new NotFound(`${kind} ${id} not found`);
  const ids = (await idsEndingAt(ctx.db, kind, [doc.id])).get(doc.id)!;
  const recorded = (await Promise.all(ids.map((i) => ctx.store.readStream(entityStream(kind, i))))).flat();
  const history = recorded
    .filter((e) => ENTITY_EVENT_TYPES.has(e.type))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .slice(-MAX_HISTORY_EVENTS)
    .map((e) => clip(JSON.stringify({ type: e.type, ...withoutPeople(e.data as Record<string, unknown>) }), MAX_EVENT_CHARS));
  const { refs, cover_url: _cover, picture: _picture, preview_url: _preview, ...facts } = doc;
  const text = [
    `The question is about ${kind} ${doc.id}${doc.id === id ? '' : ` (asked as ${id}, merged into it)`}.`,
    `Its canonical doc: ${JSON.stringify(facts)}`,
    `Its external refs (source, external id): ${JSON.stringify(refs.map((r) => [r.source, r.external_id]))}`,
    `Its event history, oldest first (FactsObserved says what a source reported, RefLinked why a source was linked):`,
    ...history,
  ].join('\n');
  return { ref: `${kind}:${doc.id}`, text };
}

/** A manual link's evidence names the curator who made it: the model is told it was manual, not by whom. */
function withoutPeople(data: Record<string, unknown>): Record<string, unknown> {
  const evidence = data.evidence as { rule?: string } | undefined;
  return evidence?.rule === 'manual' ? { ...data, evidence: { rule: 'manual' } } : data;
}
