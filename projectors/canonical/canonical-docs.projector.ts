import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import { type RefFacts, composeFromFacts, factsKey as refKey, withLinked, withObserved, withoutRef } from '../../shared/canonical/doc-facts.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import { SOURCES } from '../../shared/events/canonical.events.ts';
import { assertNever } from '../../shared/never.ts';

const noSources = () => Object.fromEntries(SOURCES.map((s) => [s, false]));

/** canonical_docs: each entity's doc, composed from what every linked ref reported. */
export const canonicalDocsProjector: Projector = {
  name: 'canonical_docs',
  version: 1,
  handles: ['EntityRegistered', 'RefLinked', 'RefUnlinked', 'FactsObserved', 'EntityAbsorbed', 'EntityMergedInto'],
  tables: ['canonical_docs'],
  apply: oneByOne<EntityEvent>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & EntityEvent): Promise<void> {
  const { id, kind, at } = event.data;
  switch (event.type) {
    case 'EntityRegistered':
      await trx
        .insertInto('canonical_docs')
        .values({
          id, kind, name: null, name_folded: null, artist_id: null, artist_name: null, album_id: null, album_title: null, disc: null,
          track_number: null, isrc: null, upc: null, mbid: null, year: null, cover_url: null, genres: '[]', tags: '[]', duration_ms: null,
          preview_url: null, catalog_id: null, primary_type: null, secondary_types: '[]', audio_quality: 'null',
          sources: JSON.stringify(noSources()), source_count: 0, facts: '{}', merged_into: null, tombstoned: false,
          created_at: new Date(at), updated_at: new Date(at),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return;
    case 'RefLinked':
      return recompose(trx, id, at, (facts) => withLinked(facts, refKey(event.data.source, event.data.external_id)));
    case 'RefUnlinked':
      return recompose(trx, id, at, (facts) => withoutRef(facts, refKey(event.data.source, event.data.external_id)));
    case 'FactsObserved':
      return recompose(trx, id, at, (facts) => withObserved(facts, refKey(event.data.source, event.data.external_id), event.data.facts));
    case 'EntityAbsorbed': {
      const source = await trx.selectFrom('canonical_docs').select('facts').where('id', '=', event.data.source_id).executeTakeFirst();
      const moved = Object.fromEntries(event.data.refs.map((r) => [refKey(r.source, r.external_id), source?.facts[refKey(r.source, r.external_id)] ?? {}]));
      return recompose(trx, id, at, (facts) => ({ ...moved, ...facts }));
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
  const doc = composeFromFacts(facts);
  await trx
    .updateTable('canonical_docs')
    .set({
      name: doc.name ?? null,
      name_folded: doc.name_folded,
      artist_id: doc.artist_id ? sql<string>`coalesce((select d.merged_into from canonical_docs d where d.id = ${doc.artist_id}), ${doc.artist_id})` : null,
      artist_name: doc.artist_name ?? null,
      album_id: doc.album_id ? sql<string>`coalesce((select d.merged_into from canonical_docs d where d.id = ${doc.album_id}), ${doc.album_id})` : null,
      album_title: doc.album_title ?? null,
      disc: doc.disc ?? null,
      track_number: doc.track_number ?? null,
      isrc: doc.isrc ?? null,
      upc: doc.upc ?? null,
      mbid: doc.mbid ?? null,
      year: doc.year ?? null,
      cover_url: doc.cover_url ?? null,
      genres: JSON.stringify(doc.genres),
      tags: JSON.stringify(doc.tags),
      duration_ms: doc.duration_ms ?? null,
      preview_url: doc.preview_url ?? null,
      catalog_id: doc.catalog_id ?? null,
      primary_type: doc.primary_type ?? null,
      secondary_types: JSON.stringify(doc.secondary_types),
      audio_quality: JSON.stringify(doc.audio_quality ?? null),
      sources: JSON.stringify(doc.sources),
      source_count: doc.source_count,
      facts: JSON.stringify(facts),
      updated_at: new Date(at),
    })
    .where('id', '=', id)
    .execute();
}
