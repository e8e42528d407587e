import type { AppContext } from '../../infra/context.ts';
import type { LyricsCommands } from '../../infra/ports/commands.ts';
import { lyricsClients } from '../../infra/upstreams/lyrics/client.ts';
import { messageOf } from '../../shared/errors.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { lyricsOf } from './lyrics-facts.ts';

export function lyricsCommands(ctx: AppContext): LyricsCommands {
  return {
    async fetch(track, actor) {
      let record;
      try {
        record = await lyricsClients(ctx.config).onDemand.find({ track: track.name, artist: track.artist_name, album: track.album_title, duration_ms: track.duration_ms });
      } catch (error) {
        return { state: 'not_found', plain: null, synced: null, reason: messageOf(error) };
      }
      const lyrics = lyricsOf(record);
      await enrichmentCommands(ctx, actor).enrich('track', track.id, 'lyrics', null, { lyrics });
      return { ...lyrics, reason: lyrics.state === 'not_found' ? 'the lyrics provider has none' : null };
    },
  };
}
