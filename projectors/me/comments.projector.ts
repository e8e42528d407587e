import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import type { CommentEvent } from '../../shared/events/me.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = CommentEvent | Extract<EntityEvent, { type: 'EntityMergedInto' | 'EntityUnmerged' }> | Extract<UserEvent, { type: 'UserDeleted' }>;

/** comments: the live notes, keyed by comment id, their `canonical_id` moved along merges. */
export const commentsProjector: Projector = {
  name: 'comments',
  // 2: rows keep the id they were written under, for unmerges.
  version: 2,
  handles: ['CommentPosted', 'CommentEdited', 'CommentDeleted', 'EntityMergedInto', 'EntityUnmerged', 'UserDeleted'],
  tables: ['comments'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'UserDeleted':
      await trx.deleteFrom('comments').where('username_key', '=', usernameKey(event.data.username)).execute();
      return;
    case 'EntityMergedInto':
      await trx.updateTable('comments').set({ canonical_id: event.data.target_id }).where('kind', '=', event.data.kind).where('canonical_id', '=', event.data.id).execute();
      return;
    case 'EntityUnmerged': {
      const { kind, id, returning } = event.data;
      await trx.updateTable('comments').set({ canonical_id: id }).where('kind', '=', kind).where('recorded_id', 'in', [id, ...returning]).execute();
      return;
    }
    case 'CommentPosted': {
      const { comment_id, username, kind, canonical_id, body, at } = event.data;
      await trx
        .insertInto('comments')
        .values({ comment_id, username_key: usernameKey(username), username, kind, recorded_id: canonical_id, canonical_id, body, edited: false, created_at: new Date(at), updated_at: new Date(at) })
        .onConflict((oc) => oc.column('comment_id').doNothing())
        .execute();
      return;
    }
    case 'CommentEdited':
      await trx
        .updateTable('comments')
        .set({ body: event.data.body, edited: true, updated_at: new Date(event.data.at) })
        .where('comment_id', '=', event.data.comment_id)
        .execute();
      return;
    case 'CommentDeleted':
      await trx.deleteFrom('comments').where('comment_id', '=', event.data.comment_id).execute();
      return;
    default:
      assertNever(event);
  }
}
