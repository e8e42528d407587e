import type { AppContext } from '../../infra/context.ts';
import { assertStreamerConfigured } from '../../infra/upstreams/streamer/client.ts';
import { linkedAccount } from '../../projectors/streamer/links.reads.ts';
import type { SessionUser } from '../../shared/users.ts';
import { meCommands } from '../me/me-commands.ts';
import { favoriteTrackIds, savedTrackTargets } from './favorites.lookups.ts';

export interface ImportSummary {
  candidates: number;
  imported: number;
  already_favorited: number;
  unresolved: number;
}

/**
 * The linked account's saved tracks, as mirrored by the last sync, become track favorites: the
 * same command, and so the same events, as `POST /me/favorites/tracks`. Idempotent: a track
 * already favorited (or saved twice under one canonical track) counts as `already_favorited`.
 */
export async function importFavorites(ctx: AppContext, user: SessionUser): Promise<ImportSummary> {
  assertStreamerConfigured(ctx.config);
  const summary: ImportSummary = { candidates: 0, imported: 0, already_favorited: 0, unresolved: 0 };
  const link = await linkedAccount(ctx.db, user.username);
  if (!link) return summary;
  const targets = await savedTrackTargets(ctx.db, link.username_key, link.account_id);
  const favorited = await favoriteTrackIds(ctx.db, link.username_key);
  const me = meCommands(ctx, user);
  summary.candidates = targets.length;
  for (const id of targets) {
    if (!id) summary.unresolved++;
    else if (favorited.has(id)) summary.already_favorited++;
    else {
      // The read model may lag a concurrent add: the command decides from the log.
      const { canonicalId, changed } = await me.addFavorite('track', id);
      favorited.add(canonicalId);
      if (changed) summary.imported++;
      else summary.already_favorited++;
    }
  }
  return summary;
}
