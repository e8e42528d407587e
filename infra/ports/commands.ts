import type { z } from 'zod';
import type { Kind, Lyrics } from '../../shared/events/canonical.events.ts';

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

/** Lyrics fetched while a listener looks: one request within 5 s; what the provider said is recorded on the track. */
export interface LyricsCommands {
  /** A fault or a timeout answers `not_found` with the reason and records nothing, so the drain tries again later. */
  fetch(track: { id: string; name: string; artist_name: string; album_title: string | null; duration_ms: number | null }, actor: string): Promise<z.infer<typeof Lyrics> & { reason: string | null }>;
}

export interface CommandPorts {
  readonly resolve: ResolveCommands;
  readonly library: LibraryCommands;
  readonly lyrics: LyricsCommands;
}
