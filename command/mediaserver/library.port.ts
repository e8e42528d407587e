import type { AppContext } from '../../infra/context.ts';
import type { LibraryCommands } from '../../infra/ports/commands.ts';
import { refreshLibraries } from './libraries.ts';

/** The write side of the library reads that refresh an empty mirror. */
export function libraryCommands(ctx: AppContext): LibraryCommands {
  return {
    async refreshLibraries(actor) {
      await refreshLibraries(ctx, actor);
      await ctx.readModels.catchUp(); // the caller reads the mirror right away
    },
  };
}
