import type { AppContext } from '../../infra/context.ts';
import type { ScrobbleRow } from '../../infra/upstreams/scrobbler/schemas.ts';
import type { Scrobble } from '../../shared/events/scrobbles.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { onScrobbles, scrobblesState } from './scrobble-log.ts';
import { newScrobbles, scrobbleId } from './scrobbles.decider.ts';
import { type CanonicalStamper, canonicalStamper } from './stamp-canonical.ts';
import { accountSinceOrEarliest } from '../../projectors/auth/users.reads.ts';

export interface PageToImport {
  username: string;
  scrobblerUsername: string;
  taskId: string | null;
  page: number | null;
  totalPages: number | null;
  rows: ScrobbleRow[];
  recordEmpty: boolean;
  stamper?: CanonicalStamper;
}

/**
 * Records one fetched page into the user's scrobble stream. Only scrobbles the stream does not hold
 * yet are stamped with canonical ids (the costly part: one reconcile batch per page) and recorded,
 * so a re-import adds nothing.
 */
export async function importPage(ctx: AppContext, page: PageToImport): Promise<{ inserted: number }> {
  const key = usernameKey(page.username);
  const candidates: Scrobble[] = page.rows.map((row) => ({
    scrobble_id: scrobbleId(key, row.uts, row.artist, row.track),
    ...row,
    canonical_artist_id: null,
    canonical_album_id: null,
    canonical_track_id: null,
  }));
  const since = await accountSinceOrEarliest(ctx.db, page.username);
  const fresh = newScrobbles(await scrobblesState(ctx, key), candidates, since);
  const stamp = page.stamper ?? canonicalStamper(ctx, page.username);
  const ids = await stamp(fresh);
  fresh.forEach((scrobble, i) => Object.assign(scrobble, ids[i]));
  const handled = await onScrobbles(ctx, key, {
    type: 'ImportPage',
    username: page.username,
    scrobblerUsername: page.scrobblerUsername,
    taskId: page.taskId,
    page: page.page,
    totalPages: page.totalPages,
    scrobbles: fresh,
    recordEmpty: page.recordEmpty,
    meta: { now: new Date().toISOString(), actor: page.username, userSince: since },
  });
  const event = handled.events[0];
  return { inserted: event?.type === 'ScrobblesImported' ? event.data.scrobbles.length : 0 };
}
