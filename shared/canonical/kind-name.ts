import { z } from 'zod';
import type { Kind } from '../events/canonical.events.ts';

const PLURALS: Record<string, Kind> = { artists: 'artist', albums: 'album', tracks: 'track' };

/** A kind as a client may spell it: `artist`, `album`, `track`, or the plural of the favorites paths. */
export const KindName = z.enum(['artist', 'album', 'track', 'artists', 'albums', 'tracks']);
export const kindOf = (name: z.infer<typeof KindName>): Kind => PLURALS[name] ?? (name as Kind);

/** A kind path parameter, normalized to the singular. */
export const CommentKind = KindName.transform(kindOf);
