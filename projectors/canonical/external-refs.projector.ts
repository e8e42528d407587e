import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';

/** external_refs: which canonical entity each (kind, source, external id) belongs to. */
export const externalRefsProjector: Projector = {
  name: 'external_refs',
  version: 1,
  handles: ['RefLinked', 'RefUnlinked', 'EntityAbsorbed'],
  tables: ['external_refs'],
  apply: oneByOne<EntityEvent>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & EntityEvent): Promise<void> {
  if (event.type === 'RefLinked') {
    const { kind, source, external_id, id, evidence, at } = event.data;
    await trx
      .insertInto('external_refs')
      .values({ kind, source, external_id, entity_id: id, evidence: JSON.stringify(evidence), linked_at: new Date(at) })
      .onConflict((oc) => oc.columns(['kind', 'source', 'external_id']).doUpdateSet({ entity_id: id, evidence: JSON.stringify(evidence), linked_at: new Date(at) }))
      .execute();
  } else if (event.type === 'RefUnlinked') {
    const { kind, source, external_id, id } = event.data;
    await trx.deleteFrom('external_refs').where('kind', '=', kind).where('source', '=', source).where('external_id', '=', external_id).where('entity_id', '=', id).execute();
  } else if (event.type === 'EntityAbsorbed') {
    const { kind, id, source_id, refs } = event.data;
    for (const r of refs) {
      await trx
        .updateTable('external_refs')
        .set({ entity_id: id, evidence: JSON.stringify({ rule: 'merge', value: source_id }) })
        .where('kind', '=', kind)
        .where('source', '=', r.source)
        .where('external_id', '=', r.external_id)
        .execute();
    }
  }
}
