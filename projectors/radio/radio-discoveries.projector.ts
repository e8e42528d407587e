import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { RadioDiscoveryEvent, RadioSessionEvent } from '../../shared/events/radio.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { foldName } from '../../shared/names.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = Extract<RadioSessionEvent, { type: 'RadioDiscoveriesWanted' }> | RadioDiscoveryEvent | Extract<UserEvent, { type: 'UserDeleted' }>;

/** radio_discoveries: what each user's radio wanted and could not play, how often and how much. */
export const radioDiscoveriesProjector: Projector = {
  name: 'radio_discoveries',
  version: 1,
  handles: ['RadioDiscoveriesWanted', 'RadioDiscoveryDismissed', 'RadioDiscoveryAlbumFound', 'UserDeleted'],
  tables: ['radio_discovery_wants', 'radio_discoveries'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'UserDeleted':
      const theirs = trx.selectFrom('radio_discoveries').select('discovery_id').where('username_key', '=', usernameKey(event.data.username));
      await trx.deleteFrom('radio_discovery_wants').where('discovery_id', 'in', theirs).execute();
      await trx.deleteFrom('radio_discoveries').where('username_key', '=', usernameKey(event.data.username)).execute();
      return;
    case 'RadioDiscoveriesWanted': {
      const when = new Date(event.data.at);
      const username_key = usernameKey(event.data.username);
      const rows = event.data.wanted.map((w) => ({
        discovery_id: w.discovery_id, username_key, artist_name: w.artist_name, artist_folded: foldName(w.artist_name), title: w.title, title_folded: foldName(w.title),
        status: w.status, similarity: w.similarity, wanted_count: 1, canonical_track_id: w.canonical_track_id,
        album_title: null, album_id: null, album_source: null, dismissed: false, first_wanted_at: when, last_wanted_at: when,
      }));
      if (rows.length === 0) return;
      await trx
        .insertInto('radio_discovery_wants')
        .values(rows.map((r) => ({ discovery_id: r.discovery_id, session_id: event.data.session_id })))
        .onConflict((oc) => oc.columns(['discovery_id', 'session_id']).doNothing())
        .execute();
      await trx
        .insertInto('radio_discoveries')
        .values(rows)
        .onConflict((oc) =>
          oc.column('discovery_id').doUpdateSet((eb) => ({
            wanted_count: sql<number>`(select count(*)::int from radio_discovery_wants w where w.discovery_id = excluded.discovery_id)`,
            similarity: sql<number>`greatest(radio_discoveries.similarity, excluded.similarity)`,
            status: eb.ref('excluded.status'),
            canonical_track_id: eb.ref('excluded.canonical_track_id'),
            last_wanted_at: eb.ref('excluded.last_wanted_at'),
          })),
        )
        .execute();
      return;
    }
    case 'RadioDiscoveryDismissed':
      await trx.updateTable('radio_discoveries').set({ dismissed: true }).where('discovery_id', '=', event.data.discovery_id).execute();
      return;
    case 'RadioDiscoveryAlbumFound': {
      const { discovery_id, album_title, album_id, source } = event.data;
      await trx.updateTable('radio_discoveries').set({ album_title, album_id, album_source: source }).where('discovery_id', '=', discovery_id).execute();
      return;
    }
    default:
      assertNever(event);
  }
}
