import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { insertJsonRows } from '../../infra/db/json-rows.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';

type Linked = StoredEvent & Extract<EntityEvent, { type: 'RefLinked' }>;
const CHUNK = 500;
const EVIDENCE = new Set(['evidence']);

/** external_refs: which canonical entity each (kind, source, external id) belongs to. */
export const externalRefsProjector: Projector = {
  name: 'external_refs',
  version: 1,
  handles: ['RefLinked', 'RefUnlinked', 'EntityAbsorbed', 'EntityUnmerged'],
  tables: ['external_refs'],
  apply: applyBatch,
};

/** Runs of links become multi-row upserts; unlinks and absorbs, which read what came before, apply in order between runs. */
async function applyBatch(trx: Transaction<Database>, events: StoredEvent[]): Promise<void> {
  let run: Linked[] = [];
  for (const event of events as (StoredEvent & EntityEvent)[]) {
    if (event.type === 'RefLinked') {
      run.push(event);
      continue;
    }
    await upsertLinks(trx, run);
    run = [];
    await applyOne(trx, event);
  }
  await upsertLinks(trx, run);
}

async function upsertLinks(trx: Transaction<Database>, run: Linked[]): Promise<void> {
  // One statement cannot upsert a row twice: the last link of a ref in the run wins, as it would one by one.
  const last = new Map(run.map((e) => [`${e.data.kind}|${e.data.source}|${e.data.external_id}`, e]));
  const rows = [...last.values()].map(({ data: { kind, source, external_id, id, evidence, at } }) => ({
    kind, source, external_id, entity_id: id, evidence: JSON.stringify(evidence), linked_at: new Date(at),
  }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await insertJsonRows(trx, 'external_refs', rows.slice(i, i + CHUNK), EVIDENCE)
      .onConflict((oc) =>
        oc.columns(['kind', 'source', 'external_id']).doUpdateSet((eb) => ({
          entity_id: eb.ref('excluded.entity_id'),
          evidence: eb.ref('excluded.evidence'),
          linked_at: eb.ref('excluded.linked_at'),
        })),
      )
      .execute();
  }
}

async function applyOne(trx: Transaction<Database>, event: StoredEvent & EntityEvent): Promise<void> {
  if (event.type === 'RefUnlinked') {
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
  } else if (event.type === 'EntityUnmerged') {
    // The refs go back with the evidence they had before the merge.
    const { kind, id, refs } = event.data;
    for (const r of refs) {
      await trx
        .updateTable('external_refs')
        .set({ entity_id: id, evidence: JSON.stringify(r.evidence) })
        .where('kind', '=', kind)
        .where('source', '=', r.source)
        .where('external_id', '=', r.external_id)
        .execute();
    }
  }
}
