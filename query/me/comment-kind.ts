import { z } from 'zod';
import type { Kind } from '../../shared/events/canonical.events.ts';

const PLURALS: Record<string, Kind> = { artists: 'artist', albums: 'album', tracks: 'track' };

/** `artist`, `album` or `track`; the plural spellings of the favorites paths are accepted too. */
export const CommentKind = z.preprocess((v) => (typeof v === 'string' && v in PLURALS ? PLURALS[v] : v), z.enum(['artist', 'album', 'track']));
