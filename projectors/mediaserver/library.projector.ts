import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import type { MediaserverLibraryEvent, MirrorItem } from '../../shared/events/mediaserver-library.events.ts';
import { assertNever } from '../../shared/never.ts';
import { foldName } from '../../shared/names.ts';
import type { MediaserverItemsTable } from './library.table.ts';

/** mediaserver_servers, mediaserver_sections and mediaserver_items: the local mirror of the server's library. */
export const mediaserverLibraryProjector: Projector = {
  name: 'mediaserver_library',
  version: 1,
  handles: ['MediaserverLibrariesListed', 'MediaserverItemsSynced', 'MediaserverItemsRemoved', 'MediaserverSectionSynced'],
  tables: ['mediaserver_servers', 'mediaserver_sections', 'mediaserver_items'],
  async apply(trx, events) {
    for (const event of events) await applyOne(trx, event as StoredEvent & MediaserverLibraryEvent);
  },
};

/** Columns a newer sighting overwrites: all but the keys. */
const UPDATED: (keyof MediaserverItemsTable)[] = [
  'section_id', 'kind', 'title', 'title_folded', 'parent_rating_key', 'grandparent_rating_key', 'parent_title', 'grandparent_title', 'item_index',
  'disc', 'year', 'duration_ms', 'thumb', 'genres', 'added_at', 'server_updated_at', 'view_count', 'last_viewed_at', 'user_rating', 'codec',
  'container', 'bit_depth', 'sampling_rate', 'bitrate', 'lossless', 'size', 'part_id', 'part_key', 'canonical_id', 'deleted', 'deleted_at', 'synced_at',
];

function rowOf(serverId: string, sectionId: string, item: MirrorItem, at: Date) {
  const m = item.media;
  return {
    server_id: serverId,
    rating_key: item.rating_key,
    section_id: sectionId,
    kind: item.kind,
    title: item.title,
    title_folded: foldName(item.title),
    parent_rating_key: item.parent_rating_key,
    grandparent_rating_key: item.grandparent_rating_key,
    parent_title: item.parent_title,
    grandparent_title: item.grandparent_title,
    item_index: item.index,
    disc: item.disc,
    year: item.year,
    duration_ms: item.duration_ms,
    thumb: item.thumb,
    genres: JSON.stringify(item.genres),
    added_at: item.added_at,
    server_updated_at: item.updated_at,
    view_count: item.view_count,
    last_viewed_at: item.last_viewed_at,
    user_rating: item.user_rating,
    codec: m?.codec ?? null,
    container: m?.container ?? null,
    bit_depth: m?.bit_depth ?? null,
    sampling_rate: m?.sampling_rate ?? null,
    bitrate: m?.bitrate ?? null,
    lossless: m ? m.lossless : null,
    size: m?.size ?? null,
    part_id: m?.part_id ?? null,
    part_key: m?.part_key ?? null,
    canonical_id: item.canonical_id,
    deleted: false,
    deleted_at: null,
    synced_at: at,
  };
}

async function applyOne(trx: Transaction<Database>, event: StoredEvent & MediaserverLibraryEvent): Promise<void> {
  const at = new Date(event.data.at);
  switch (event.type) {
    case 'MediaserverLibrariesListed': {
      const { server, sections } = event.data;
      const serverRow = { friendly_name: server.friendly_name, version: server.version, platform: server.platform, platform_version: server.platform_version, listed_at: at };
      await trx.insertInto('mediaserver_servers').values({ server_id: server.machine_identifier, ...serverRow }).onConflict((oc) => oc.column('server_id').doUpdateSet(serverRow)).execute();
      await trx.updateTable('mediaserver_sections').set({ present: false }).where('server_id', '=', server.machine_identifier).execute();
      for (const s of sections) {
        const row = { type: s.type, title: s.title, agent: s.agent, uuid: s.uuid, server_updated_at: s.updated_at, present: true };
        await trx
          .insertInto('mediaserver_sections')
          .values({ server_id: server.machine_identifier, section_id: s.section_id, ...row, last_synced_at: null, last_sync: null })
          .onConflict((oc) => oc.columns(['server_id', 'section_id']).doUpdateSet(row))
          .execute();
      }
      return;
    }
    case 'MediaserverItemsSynced': {
      const { server_id, section_id, items } = event.data;
      if (items.length === 0) return;
      const rows = items.map((item) => rowOf(server_id, section_id, item, at));
      await trx
        .insertInto('mediaserver_items')
        .values(rows)
        .onConflict((oc) => oc.columns(['server_id', 'rating_key']).doUpdateSet((eb) => Object.fromEntries(UPDATED.map((c) => [c, eb.ref(`excluded.${c}`)]))))
        .execute();
      return;
    }
    case 'MediaserverItemsRemoved': {
      const { server_id, rating_keys } = event.data;
      if (rating_keys.length === 0) return;
      await trx
        .updateTable('mediaserver_items')
        .set({ deleted: true, deleted_at: at })
        .where('server_id', '=', server_id)
        .where('rating_key', 'in', rating_keys)
        .where('deleted', '=', false)
        .execute();
      return;
    }
    case 'MediaserverSectionSynced': {
      const { server_id, section_id, quick, counts } = event.data;
      await trx
        .updateTable('mediaserver_sections')
        .set({ last_synced_at: at, last_sync: JSON.stringify({ quick, ...counts }) })
        .where('server_id', '=', server_id)
        .where('section_id', '=', section_id)
        .execute();
      return;
    }
    default:
      assertNever(event);
  }
}

