import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { StreamerLinkEvent } from '../../shared/events/streamer.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { StreamerLinksTable } from './links.table.ts';

/** streamer_links: who is linked to which streamer account, and whether it needs linking again. */
export const streamerLinksProjector: Projector = {
  name: 'streamer_links',
  version: 1,
  handles: ['StreamerLinked', 'StreamerRelinkNeeded', 'StreamerUnlinked'],
  tables: ['streamer_links'],
  apply: oneByOne<StreamerLinkEvent>(applyOne),
};

const UNLINKED = { account_id: null, display_name: null, linked_at: null, state: null, state_reason: null };

async function upsert(trx: Transaction<Database>, username: string, at: Date, changes: Partial<StreamerLinksTable>): Promise<void> {
  await trx
    .insertInto('streamer_links')
    .values({ username_key: usernameKey(username), username, ...UNLINKED, ...changes, updated_at: at })
    .onConflict((oc) => oc.column('username_key').doUpdateSet({ ...changes, updated_at: at }))
    .execute();
}

async function applyOne(trx: Transaction<Database>, event: StoredEvent & StreamerLinkEvent): Promise<void> {
  const at = new Date(event.data.at);
  switch (event.type) {
    case 'StreamerLinked':
      return upsert(trx, event.data.username, at, { account_id: event.data.account_id, display_name: event.data.display_name, linked_at: at, state: 'linked', state_reason: null });
    case 'StreamerRelinkNeeded':
      return upsert(trx, event.data.username, at, { state: 'needs_relink', state_reason: event.data.reason });
    case 'StreamerUnlinked':
      return upsert(trx, event.data.username, at, UNLINKED);
    default:
      assertNever(event);
  }
}
