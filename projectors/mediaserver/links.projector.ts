import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { MediaserverLinkEvent } from '../../shared/events/mediaserver.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { MediaserverLinksTable } from './links.table.ts';

/** mediaserver_links: who is linked to which account, and who is mid-PIN. */
export const mediaserverLinksProjector: Projector = {
  name: 'mediaserver_links',
  version: 1,
  handles: ['MediaserverPinStarted', 'MediaserverPinCancelled', 'MediaserverPinExpired', 'MediaserverLinked', 'MediaserverUnlinked'],
  tables: ['mediaserver_links'],
  apply: oneByOne<MediaserverLinkEvent>(applyOne),
};

const UNLINKED = { credential_id: null, account_id: null, account_uuid: null, account_username: null, account_title: null, account_thumb: null, linked_at: null };

async function upsert(trx: Transaction<Database>, username: string, at: Date, changes: Partial<MediaserverLinksTable>): Promise<void> {
  await trx
    .insertInto('mediaserver_links')
    .values({ username_key: usernameKey(username), username, ...UNLINKED, pending_expires_at: null, ...changes, updated_at: at })
    .onConflict((oc) => oc.column('username_key').doUpdateSet({ ...changes, updated_at: at }))
    .execute();
}

async function applyOne(trx: Transaction<Database>, event: StoredEvent & MediaserverLinkEvent): Promise<void> {
  const { username } = event.data;
  const at = new Date(event.data.at);
  switch (event.type) {
    case 'MediaserverPinStarted':
      return upsert(trx, username, at, { pending_expires_at: new Date(event.data.expires_at) });
    case 'MediaserverPinCancelled':
    case 'MediaserverPinExpired':
      return upsert(trx, username, at, { pending_expires_at: null });
    case 'MediaserverLinked': {
      const { account, credential_id } = event.data;
      return upsert(trx, username, at, {
        pending_expires_at: null,
        credential_id,
        account_id: account.id,
        account_uuid: account.uuid,
        account_username: account.username,
        account_title: account.title,
        account_thumb: account.thumb,
        linked_at: at,
      });
    }
    case 'MediaserverUnlinked':
      return upsert(trx, username, at, UNLINKED);
    default:
      assertNever(event);
  }
}
