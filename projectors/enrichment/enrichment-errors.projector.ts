import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import type { EnrichmentEvent } from '../../shared/events/enrichment.events.ts';
import { assertNever } from '../../shared/never.ts';

type Handled = EnrichmentEvent | Extract<EntityEvent, { type: 'EntityMergedInto' | 'EntityUnmerged' }>;

/**
 * enrichment_errors: the drains' failures still open. A failure files or refreshes its row, the
 * drain's later success on that entity removes it, and so does an admin's clear. Merging the entity
 * away hides its rows (the drain meets its target instead); undoing the merge shows them again.
 */
export const enrichmentErrorsProjector: Projector = {
  name: 'enrichment_errors',
  // Version 2: rows merged away are hidden, not dropped; the rebuild brings back the ones dropped before.
  version: 2,
  handles: ['EnrichmentFailed', 'EnrichmentRecovered', 'EnrichmentErrorsCleared', 'EntityMergedInto', 'EntityUnmerged'],
  tables: ['enrichment_errors'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'EnrichmentFailed': {
      const { source, kind, id, error, at } = event.data;
      const seen = new Date(at);
      await trx
        .insertInto('enrichment_errors')
        .values({ source, kind, canonical_id: id, error, attempts: 1, first_seen: seen, last_seen: seen })
        .onConflict((oc) =>
          oc.columns(['source', 'kind', 'canonical_id']).doUpdateSet((eb) => ({
            error: eb.ref('excluded.error'),
            attempts: eb('enrichment_errors.attempts', '+', 1),
            last_seen: eb.ref('excluded.last_seen'),
          })),
        )
        .execute();
      return;
    }
    case 'EnrichmentRecovered': {
      const { source, kind, id } = event.data;
      await trx.deleteFrom('enrichment_errors').where('source', '=', source).where('kind', '=', kind).where('canonical_id', '=', id).execute();
      return;
    }
    case 'EntityMergedInto':
    case 'EntityUnmerged': {
      const merged_away = event.type === 'EntityMergedInto';
      await trx.updateTable('enrichment_errors').set({ merged_away }).where('kind', '=', event.data.kind).where('canonical_id', '=', event.data.id).execute();
      return;
    }
    case 'EnrichmentErrorsCleared': {
      const { source } = event.data;
      await (source === null ? trx.deleteFrom('enrichment_errors') : trx.deleteFrom('enrichment_errors').where('source', '=', source)).execute();
      return;
    }
    case 'EntityEnriched':
      return;
    default:
      assertNever(event);
  }
}
