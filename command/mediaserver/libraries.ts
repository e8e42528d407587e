import type { AppContext } from '../../infra/context.ts';
import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import type { Identity, Section } from '../../infra/upstreams/mediaserver/schemas.ts';
import type { MirrorSection } from '../../shared/events/mediaserver-library.events.ts';
import { mediaserverServerStream } from '../../shared/streams.ts';

export interface ListedLibraries {
  serverId: string;
  identity: Identity;
  sections: Section[];
}

const sectionOf = (s: Section): MirrorSection => ({
  section_id: s.key,
  type: s.type,
  title: s.title,
  agent: s.agent ?? null,
  uuid: s.uuid ?? null,
  updated_at: s.updatedAt ?? null,
});

/** Reads the server's identity and sections and records them in the mirror. */
export async function refreshLibraries(ctx: AppContext, actor: string | null, correlationId?: string): Promise<ListedLibraries> {
  const server = mediaserverClients(ctx).server();
  const identity = await server.identity();
  const sections = await server.sections();
  const serverId = identity.machineIdentifier;
  const event = {
    type: 'MediaserverLibrariesListed' as const,
    data: {
      server: {
        machine_identifier: serverId,
        friendly_name: identity.friendlyName ?? null,
        version: identity.version ?? null,
        platform: identity.platform ?? null,
        platform_version: identity.platformVersion ?? null,
      },
      sections: sections.map(sectionOf),
      at: new Date().toISOString(),
    },
  };
  // An observation of the server, not a decision: appended at any revision.
  await ctx.store.append(mediaserverServerStream(serverId), [toNewEvent(event, { actor, ...(correlationId ? { correlation_id: correlationId } : {}) })], 'any');
  return { serverId, identity, sections };
}
