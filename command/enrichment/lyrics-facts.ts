import type { LyricsRecord } from '../../infra/upstreams/lyrics/schemas.ts';
import type { Lyrics } from '../../shared/events/canonical.events.ts';
import { parseLrc } from '../../shared/lyrics/lrc.ts';
import type { z } from 'zod';

export type LyricsFact = z.infer<typeof Lyrics>;
export const NO_LYRICS: LyricsFact = { state: 'not_found', plain: null, synced: null };

/**
 * The provider's record as the doc keeps it: plain text, synced lines parsed from LRC, an
 * instrumental as such; a record with neither plain nor synced text is "none".
 */
export function lyricsOf(record: LyricsRecord | null): LyricsFact {
  if (!record) return NO_LYRICS;
  if (record.instrumental) return { state: 'instrumental', plain: null, synced: null };
  const parsed = record.syncedLyrics ? parseLrc(record.syncedLyrics) : [];
  const synced = parsed.length > 0 ? parsed : null;
  const plain = record.plainLyrics?.trim() || synced?.map((l) => l.text).join('\n').trim() || null;
  return plain === null ? NO_LYRICS : { state: 'found', plain, synced };
}
