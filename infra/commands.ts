import { resolveCommands } from '../command/canonical/resolve.port.ts';
import { libraryCommands } from '../command/mediaserver/library.port.ts';
import { lyricsCommands } from '../command/enrichment/lyrics.port.ts';
import type { AppContext } from './context.ts';
import type { CommandPorts } from './ports/commands.ts';

/** Composition root of the command ports: the write side's implementations behind `ctx.commands`. */
export function commandPorts(ctx: AppContext): CommandPorts {
  return { resolve: resolveCommands(ctx), library: libraryCommands(ctx), lyrics: lyricsCommands(ctx) };
}
