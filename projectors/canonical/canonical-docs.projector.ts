import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import { type RefFacts, composeFromFacts, jsonbKeyOrder, withAbsorbed, withGivenBack, withUnabsorbed, factsKey as refKey } from '../../shared/canonical/doc-facts.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import { docColumns, noSources } from './canonical-docs.columns.ts';
import { storeListJson } from './canonical-docs.json.ts';
import { type RunEvent, applyRun } from './canonical-docs.runs.ts';
import { assertNever } from '../../shared/never.ts';

/** canonical_docs: each entity's doc, composed from what every linked ref reported. */
export const canonicalDocsProjector: Projector = {
  name: 'canonical_docs',
  // 2: a tombstone keeps its facts (an unmerge gives back its stand-alone enrichment layers). 3: list_json.
  version: 3,
  handles: ['EntityRegistered', 'RefLinked', 'RefUnlinked', 'FactsObserved', 'EntityAbsorbed', 'EntityMergedInto', 'EntityEnriched', 'EntityUnmerged', 'EntityUnabsorbed'],
  tables: ['canonical_docs'],
  apply: applyBatch,
};

/**
 * Runs of single-doc events go through applyRun, which writes each row with its list JSON; merges,
 * which touch other rows, one at a time between runs, and the rows they wrote are rendered as
 * their list JSON once, at the end.
 */
async function applyBatch(trx: Transaction<Database>, events: StoredEvent[]): Promise<void> {
  const merged: string[] = [];
  let run: RunEvent[] = [];
  for (const event of events as (StoredEvent & EntityEvent)[]) {
    if (event.type === 'EntityMergedInto' || event.type === 'EntityAbsorbed' || event.type === 'EntityUnmerged' || event.type === 'EntityUnabsorbed') {
      if (run.length > 0) await applyRun(trx, run);
      run = [];
      merged.push(...(await applyMerge(trx, event)));
    } else {
      run.push(event as RunEvent);
    }
  }
  if (run.length > 0) await applyRun(trx, run);
  await storeListJson(trx, merged);
  // Readers cache what the docs answer (a list's total) until this moves; the log's position moves for any event.
  await trx
    .insertInto('canonical_docs_revision')
    .values({ singleton: true, revision: 1 })
    .onConflict((oc) => oc.column('singleton').doUpdateSet({ revision: sql`canonical_docs_revision.revision + 1` }))
    .execute();
}

type MergeEvent = StoredEvent & Extract<EntityEvent, { type: 'EntityAbsorbed' | 'EntityMergedInto' | 'EntityUnmerged' | 'EntityUnabsorbed' }>;

/** Applies a merge event; answers the ids of the rows it wrote. */
async function applyMerge(trx: Transaction<Database>, event: MergeEvent): Promise<string[]> {
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
        .set({ merged_into: target, tombstoned: true, sources: JSON.stringify(noSources()), source_count: 0, updated_at: new Date(at) })
        .where('id', '=', id)
        .execute();
      // Chains collapse in the read model: whatever pointed here now points at the target.
      const pointing = [await trx.updateTable('canonical_docs').set({ merged_into: target }).where('merged_into', '=', id).returning('id').execute()];
      if (kind === 'album') pointing.push(await trx.updateTable('canonical_docs').set({ album_id: target }).where('album_id', '=', id).returning('id').execute());
      if (kind === 'artist') pointing.push(await trx.updateTable('canonical_docs').set({ artist_id: target }).where('artist_id', '=', id).returning('id').execute());
      return [id, ...pointing.flat().map((r) => r.id)];
    }
    case 'EntityUnmerged':
      return applyUnmerged(trx, event.data);
    case 'EntityUnabsorbed': {
      const keys = event.data.refs.map((r) => refKey(r.source, r.external_id));
      return recompose(trx, id, at, (facts) => withUnabsorbed(facts, keys, event.data.enriched));
    }
    default:
      assertNever(event);
  }
}

/**
 * The source stands again, composed from the refs it takes back (as the target holds them) and its
 * own stand-alone layers; the ids merged into it before point at it again, and so do the albums and
 * tracks whose reported artist or album ends its chain at it again.
 */
async function applyUnmerged(trx: Transaction<Database>, data: Extract<EntityEvent, { type: 'EntityUnmerged' }>['data']): Promise<string[]> {
  const { id, kind, target_id, at } = data;
  const rows = await trx.selectFrom('canonical_docs').select(['id', 'facts']).where('id', 'in', [id, target_id]).execute();
  const factsOf = (of: string) => (rows.find((r) => r.id === of)?.facts ?? {}) as RefFacts;
  const facts = jsonbKeyOrder(withGivenBack(factsOf(id), factsOf(target_id), data.refs.map((r) => refKey(r.source, r.external_id))));
  await trx.updateTable('canonical_docs').set({ merged_into: null, tombstoned: false, updated_at: new Date(at) }).where('id', '=', id).execute();
  if (data.returning.length > 0) await trx.updateTable('canonical_docs').set({ merged_into: id }).where('id', 'in', data.returning).execute();
  await trx.updateTable('canonical_docs').set(docColumns(composeFromFacts(facts), facts)).where('id', '=', id).execute();
  if (kind === 'track') return [id, ...data.returning];
  const column = kind === 'artist' ? 'artist_id' : 'album_id';
  const pointing = await trx.selectFrom('canonical_docs').select(['id', 'facts', 'tombstoned']).where(column, '=', target_id).execute();
  for (const row of pointing) {
    const own = jsonbKeyOrder(row.facts as RefFacts);
    const columns = docColumns(composeFromFacts(own), own);
    // A tombstone keeps its emptied sources: only where it points moves.
    await trx.updateTable('canonical_docs').set(row.tombstoned ? { [column]: columns[column] } : columns).where('id', '=', row.id).execute();
  }
  return [id, ...data.returning, ...pointing.map((r) => r.id)];
}

async function recompose(trx: Transaction<Database>, id: string, at: string, change: (facts: RefFacts) => RefFacts): Promise<string[]> {
  const row = await trx.selectFrom('canonical_docs').select(['facts', 'tombstoned']).where('id', '=', id).executeTakeFirst();
  if (!row || row.tombstoned) return [];
  const facts = change(row.facts as RefFacts);
  await trx.updateTable('canonical_docs').set({ ...docColumns(composeFromFacts(facts), facts), updated_at: new Date(at) }).where('id', '=', id).execute();
  return [id];
}
