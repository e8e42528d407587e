import type { AppContext } from '../../infra/context.ts';
import type { ResolveCommands } from '../../infra/ports/commands.ts';
import { reconcileFromScrobbler } from '../scrobbler/resolve-scrobbler.ts';
import { seedFromCatalog } from './catalog-seed.ts';
import { reconcile } from './reconciler.ts';

/** The write side of the resolve routes (GET /{artists,albums,tracks}/resolve on a miss). */
export function resolveCommands(ctx: AppContext): ResolveCommands {
  return {
    seedFromCatalog: (kind, catalogId, actor) => seedFromCatalog(ctx, kind, catalogId, actor),
    reconcileFromScrobbler: (kind, externalId, actor) => reconcileFromScrobbler(ctx, kind, externalId, actor),
    reconcileScrobblerArtist: (name, actor) =>
      reconcile(ctx, { source: 'scrobbler', kind: 'artist', external_id: name.toLowerCase(), facts: { name } }, actor),
  };
}
