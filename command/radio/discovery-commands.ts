import type { AppContext } from '../../infra/context.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import { ownsDiscovery } from '../../projectors/radio/radio-discoveries.reads.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import { NotFound } from '../../shared/errors.ts';
import type { RadioDiscoveryEvent } from '../../shared/events/radio.events.ts';
import { radioDiscoveryStream } from '../../shared/streams.ts';
import * as discovery from './discovery.decider.ts';
import type { DiscoveryCommand, DiscoveryState } from './discovery.decider.ts';

/** Facts about discoveries: a user dismissing one of theirs, the backfill finding an album. */
export function discoveryCommands(ctx: AppContext, actor: string) {
  const run = (discoveryId: string, command: WithoutMeta<DiscoveryCommand>) =>
    handleCommand<DiscoveryState, DiscoveryCommand, RadioDiscoveryEvent>(
      ctx.store,
      radioDiscoveryStream(discoveryId),
      discovery,
      { ...command, meta: { discoveryId, now: new Date().toISOString() } } as DiscoveryCommand,
      { actor },
    );

  return {
    /** 404 for a discovery that is not the user's. */
    async dismiss(username: string, discoveryId: string): Promise<void> {
      if (!(await ownsDiscovery(ctx.db, username, discoveryId))) throw new NotFound('Discovery not found');
      await run(discoveryId, { type: 'DismissDiscovery', username });
    },

    async recordAlbum(discoveryId: string, albumTitle: string, albumId: string | null, source: 'scrobbler' | 'catalog'): Promise<void> {
      await run(discoveryId, { type: 'RecordDiscoveryAlbum', albumTitle, albumId, source });
    },
  };
}
