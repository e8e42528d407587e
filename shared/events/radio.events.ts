import { z } from 'zod';

/**
 * Radio. Each session is a stream `radio-<session_id>`: how it was seeded with the candidate pool
 * it will pick from (the facts each candidate was chosen on, so a replay explains every pick), each
 * pick with its score and reason, the outcome of each track, thumbs, ending and resuming.
 * Thumbs and negative outcomes also feed the user's cross-session feedback (a read model over
 * every session of theirs). Which session is the user's active one is a stream of its own,
 * `radiolistener-<user>`. Discoveries (tracks the radio wanted and could not play) are noted on
 * the session that wanted them; dismissing one or finding its album is a `radiodiscovery-<id>` fact.
 */
export const SeedKind = z.enum(['artist', 'album', 'track', 'mood', 'genre']);
export type SeedKind = z.infer<typeof SeedKind>;
export const Outcome = z.enum(['played', 'skipped', 'disliked', 'liked']);
export type Outcome = z.infer<typeof Outcome>;
export const Signal = z.enum(['up', 'down']);
export type Signal = z.infer<typeof Signal>;

/** A scrobbler similarity: to what (a seed artist's or a seed track's name) and how much (0 to 1). */
export const Similarity = z.object({ of: z.string(), match: z.number() });

/** Why a track is in the pool: what ties it to the seed, as found when the session started. */
export const PoolEntry = z.object({
  track_id: z.string(),
  artist_id: z.string().nullable(),
  artist_name: z.string().nullable(),
  /** The seed artist's name when the track is theirs (the seed's artist for an album or a track). */
  same_artist: z.string().nullable(),
  /** The seed album's title when the track is on it (the seed track's album for a track). */
  same_album: z.string().nullable(),
  /** The scrobbler lists the track's artist as similar to the seed's artist. */
  similar_artist: Similarity.nullable(),
  /** The scrobbler lists the track as similar to a seed track. */
  similar_track: Similarity.nullable(),
  /** Tags, moods or genres the track shares with the seed (the seed itself for a mood or genre). */
  shared: z.array(z.string()),
});
export type PoolEntry = z.infer<typeof PoolEntry>;

const session = { session_id: z.string(), username: z.string(), at: z.string() };

export const RadioSessionStarted = z.object({
  ...session,
  seed_kind: SeedKind,
  seed_id: z.string(),
  seed_label: z.string(),
  /** How many playable candidates the seed found; `pool` keeps the best of them. */
  pool_size: z.number().int().min(0),
  pool: z.array(PoolEntry),
});
export const RadioTrackPicked = z.object({
  ...session,
  position: z.number().int().min(1),
  canonical_track_id: z.string(),
  artist_id: z.string().nullable(),
  score: z.number(),
  reason: z.string(),
});
export const RadioOutcomeLogged = z.object({
  ...session,
  position: z.number().int().min(1),
  canonical_track_id: z.string(),
  artist_id: z.string().nullable(),
  outcome: Outcome,
});
export const RadioFeedbackGiven = z.object({ ...session, canonical_track_id: z.string(), artist_id: z.string().nullable(), signal: Signal });
/** `replaced`: another session of the user's started or resumed (one active per user). */
export const RadioSessionEnded = z.object({ ...session, cause: z.enum(['ended', 'replaced']) });
export const RadioSessionResumed = z.object({ ...session });
/**
 * The listener's active session is now `session_id` (started or resumed): one stream per user,
 * appended at its expected revision, so two racing starts are ordered and each ends the one before.
 * `replaces`: the sessions this choice ends (the one chosen before, or the open ones found before
 * the stream's first choice).
 */
export const RadioSessionChosen = z.object({ username: z.string(), session_id: z.string(), replaces: z.array(z.string()), at: z.string() });

export const DiscoveryStatus = z.enum(['not_playable', 'not_in_library']);
export type DiscoveryStatus = z.infer<typeof DiscoveryStatus>;
export const WantedTrack = z.object({
  discovery_id: z.string(),
  artist_name: z.string(),
  title: z.string(),
  /** The scrobbler's match with the seed track (0 to 1). */
  similarity: z.number(),
  status: DiscoveryStatus,
  /** The canonical track when the library has it but the media server does not. */
  canonical_track_id: z.string().nullable(),
});
export type WantedTrack = z.infer<typeof WantedTrack>;
export const RadioDiscoveriesWanted = z.object({ ...session, wanted: z.array(WantedTrack) });
export const RadioDiscoveryDismissed = z.object({ discovery_id: z.string(), username: z.string(), at: z.string() });
/** The album a wanted track is on, as the scrobbler's track info or the catalog told it. */
export const RadioDiscoveryAlbumFound = z.object({
  discovery_id: z.string(),
  album_title: z.string(),
  album_id: z.string().nullable(),
  source: z.enum(['scrobbler', 'catalog']),
  at: z.string(),
});

export const radioEventSchemas = {
  RadioSessionStarted,
  RadioTrackPicked,
  RadioOutcomeLogged,
  RadioFeedbackGiven,
  RadioSessionEnded,
  RadioSessionResumed,
  RadioSessionChosen,
  RadioDiscoveriesWanted,
  RadioDiscoveryDismissed,
  RadioDiscoveryAlbumFound,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
export type RadioSessionEvent =
  | { type: 'RadioSessionStarted'; data: Infer<typeof RadioSessionStarted> }
  | { type: 'RadioTrackPicked'; data: Infer<typeof RadioTrackPicked> }
  | { type: 'RadioOutcomeLogged'; data: Infer<typeof RadioOutcomeLogged> }
  | { type: 'RadioFeedbackGiven'; data: Infer<typeof RadioFeedbackGiven> }
  | { type: 'RadioSessionEnded'; data: Infer<typeof RadioSessionEnded> }
  | { type: 'RadioSessionResumed'; data: Infer<typeof RadioSessionResumed> }
  | { type: 'RadioDiscoveriesWanted'; data: Infer<typeof RadioDiscoveriesWanted> };
export type RadioListenerEvent = { type: 'RadioSessionChosen'; data: Infer<typeof RadioSessionChosen> };
export type RadioDiscoveryEvent =
  | { type: 'RadioDiscoveryDismissed'; data: Infer<typeof RadioDiscoveryDismissed> }
  | { type: 'RadioDiscoveryAlbumFound'; data: Infer<typeof RadioDiscoveryAlbumFound> };
export type RadioEvent = RadioSessionEvent | RadioListenerEvent | RadioDiscoveryEvent;
