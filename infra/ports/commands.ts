import type { Kind } from '../../shared/events/canonical.events.ts';

/**
 * Command ports: what a GET route may ask the write side to do when it must write to answer. The
 * write side implements them (command/<slice>/*.port.ts), the composition root (infra/commands.ts)
 * wires them into `ctx.commands`; a query module never imports a command module.
 */

/** Resolve on a miss: an entity known upstream but not here is fetched, reconciled, then answered. */
export interface ResolveCommands {
  /** Fetches a catalog entity (an album brings its tracks and artist) and reconciles it: its canonical id, in the read models once answered. */
  seedFromCatalog(kind: Kind, catalogId: string, actor: string): Promise<string>;
  /** Reconciles an album or track the scrobbler knows by `<artist>::<title>`; undefined when it has none. */
  reconcileFromScrobbler(kind: 'album' | 'track', externalId: string, actor: string): Promise<string | undefined>;
  /** A scrobbler artist needs nothing upstream (its name is its id): mints or finds its canonical. */
  reconcileScrobblerArtist(name: string, actor: string): Promise<string>;
}

/** The media server's mirror, refreshed when a read finds it empty. */
export interface LibraryCommands {
  /** Reads the server's identity and sections and records them in the mirror; answers once the mirror's read model includes them. */
  refreshLibraries(actor: string | null): Promise<void>;
}

export interface CommandPorts {
  readonly resolve: ResolveCommands;
  readonly library: LibraryCommands;
}
