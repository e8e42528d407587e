import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { StoredEvent } from '../../infra/projections/projector.ts';
import type { ComposedDoc } from '../../shared/canonical/compose-doc.ts';
import { type RefFacts, composeFromFacts, foldFacts, jsonbKeyOrder } from '../../shared/canonical/doc-facts.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import type { EntityEnrichmentEvent } from '../../shared/events/enrichment.events.ts';
import { DOC_COLUMNS, docColumns } from './canonical-docs.columns.ts';

/** Events that change one doc only: a run of them is applied in memory and written in a few statements. */
export type RunEvent = StoredEvent &
  (Extract<EntityEvent, { type: 'EntityRegistered' | 'RefLinked' | 'RefUnlinked' | 'FactsObserved' }> | Extract<EntityEnrichmentEvent, { type: 'EntityEnriched' }>);

interface Doc {
  id: string;
  kind: string;
  tombstoned: boolean;
  createdAt: Date;
  /** The facts as the next read of the jsonb column would return them. */
  facts: RefFacts;
  /** Set once the run changed it: the doc composed at its last change, with that change's facts and time. */
  change?: { doc: ComposedDoc; facts: RefFacts; at: string };
}

const CHUNK = 500;

/**
 * Applies a run of single-doc events with the same rules as one event at a time (recompose on the
 * facts as the jsonb column returns them), reading the touched rows in one query and writing each
 * changed row once. Answers the ids of the rows it wrote.
 */
export async function applyRun(trx: Transaction<Database>, events: RunEvent[]): Promise<string[]> {
  const docs = await load(trx, [...new Set(events.map((e) => e.data.id))]);
  for (const event of events) {
    const { id, kind, at } = event.data;
    if (event.type === 'EntityRegistered') {
      if (!docs.has(id)) docs.set(id, { id, kind, tombstoned: false, createdAt: new Date(at), facts: {}, change: { doc: composeFromFacts({}), facts: {}, at } });
      continue;
    }
    const doc = docs.get(id);
    if (!doc || doc.tombstoned) continue;
    const facts = foldFacts(doc.facts, event);
    doc.change = { doc: composeFromFacts(facts), facts, at };
    doc.facts = jsonbKeyOrder(facts);
  }
  const changed = [...docs.values()].filter((d) => d.change);
  for (let i = 0; i < changed.length; i += CHUNK) await write(trx, changed.slice(i, i + CHUNK));
  return changed.map((d) => d.id);
}

async function load(trx: Transaction<Database>, ids: string[]): Promise<Map<string, Doc>> {
  const docs = new Map<string, Doc>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await trx.selectFrom('canonical_docs').select(['id', 'kind', 'tombstoned', 'created_at', 'facts']).where('id', 'in', ids.slice(i, i + CHUNK)).execute();
    for (const r of rows) docs.set(r.id, { id: r.id, kind: r.kind, tombstoned: r.tombstoned, createdAt: r.created_at, facts: r.facts as RefFacts });
  }
  return docs;
}

async function write(trx: Transaction<Database>, docs: Doc[]): Promise<void> {
  await trx
    .insertInto('canonical_docs')
    .values(
      docs.map((d) => ({
        id: d.id, kind: d.kind, merged_into: null, tombstoned: false, created_at: d.createdAt, updated_at: new Date(d.change!.at),
        ...docColumns(d.change!.doc, d.change!.facts),
      })),
    )
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        ...Object.fromEntries(DOC_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
