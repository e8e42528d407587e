import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import { type RefFacts, composeFromFacts, withAbsorbed, factsKey as refKey } from '../../shared/canonical/doc-facts.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import { docColumns, noSources } from './canonical-docs.columns.ts';
import { type RunEvent, applyRun } from './canonical-docs.runs.ts';
import { assertNever } from '../../shared/never.ts';

/** canonical_docs: each entity's doc, composed from what every linked ref reported. */
export const canonicalDocsProjector: Projector = {
  name: 'canonical_docs',
  version: 1,
  handles: ['EntityRegistered', 'RefLinked', 'RefUnlinked', 'FactsObserved', 'EntityAbsorbed', 'EntityMergedInto', 'EntityEnriched'],
  tables: ['canonical_docs'],
  apply: applyBatch,
};

/** Runs of single-doc events go through applyRun; merges, which touch other rows, one at a time between runs. */
async function applyBatch(trx: Transaction<Database>, events: StoredEvent[]): Promise<void> {
  let run: RunEvent[] = [];
  for (const event of events as (StoredEvent & EntityEvent)[]) {
    if (event.type === 'EntityMergedInto' || event.type === 'EntityAbsorbed') {
      if (run.length > 0) await applyRun(trx, run);
      run = [];
      await applyMerge(trx, event);
    } else {
      run.push(event as RunEvent);
    }
  }
  if (run.length > 0) await applyRun(trx, run);
}

type MergeEvent = StoredEvent & Extract<EntityEvent, { type: 'EntityAbsorbed' | 'EntityMergedInto' }>;

async function applyMerge(trx: Transaction<Database>, event: MergeEvent): Promise<void> {
  const { id, kind, at } = event.data;
  switch (event.type) {
    case 'EntityAbsorbed': {
      const source = await trx.selectFrom('canonical_docs').select('facts').where('id', '=', event.data.source_id).executeTakeFirst();
      const keys = event.data.refs.map((r) => refKey(r.source, r.external_id));
      return recompose(trx, id, at, (facts) => withAbsorbed(facts, source?.facts as RefFacts | undefined, keys));
    }
    case 'EntityMergedInto': {
      const target = event.data.target_id;
      await trx
        .updateTable('canonical_docs')
        .set({ merged_into: target, tombstoned: true, facts: '{}', sources: JSON.stringify(noSources()), source_count: 0, updated_at: new Date(at) })
        .where('id', '=', id)
        .execute();
      // Chains collapse in the read model: whatever pointed here now points at the target.
      await trx.updateTable('canonical_docs').set({ merged_into: target }).where('merged_into', '=', id).execute();
      if (kind === 'album') await trx.updateTable('canonical_docs').set({ album_id: target }).where('album_id', '=', id).execute();
      if (kind === 'artist') await trx.updateTable('canonical_docs').set({ artist_id: target }).where('artist_id', '=', id).execute();
      return;
    }
    default:
      assertNever(event);
  }
}

async function recompose(trx: Transaction<Database>, id: string, at: string, change: (facts: RefFacts) => RefFacts): Promise<void> {
  const row = await trx.selectFrom('canonical_docs').select(['facts', 'tombstoned']).where('id', '=', id).executeTakeFirst();
  if (!row || row.tombstoned) return;
  const facts = change(row.facts as RefFacts);
  await trx.updateTable('canonical_docs').set({ ...docColumns(composeFromFacts(facts), facts), updated_at: new Date(at) }).where('id', '=', id).execute();
}
