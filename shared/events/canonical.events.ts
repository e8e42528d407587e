import { z } from 'zod';

/**
 * The canonical layer: one artist, album and track per real thing, streams `artist-<id>`,
 * `album-<id>`, `track-<id>`; and one claim stream per external ref, so that a ref belongs to one
 * entity at most, whatever runs concurrently.
 */
export const Kind = z.enum(['artist', 'album', 'track']);
export type Kind = z.infer<typeof Kind>;

export const SOURCES = ['mediaserver', 'scrobbler', 'streamer', 'catalog', 'store', 'metabase', 'releasedb', 'features'] as const;
export const Source = z.enum(SOURCES);
export type Source = z.infer<typeof Source>;

/** Why a ref was linked: the rule that fired and the value it matched, so a wrong link can be traced. */
export const Evidence = z.object({
  rule: z.enum(['existing_ref', 'isrc', 'upc', 'mbid', 'name_key', 'new_entity', 'manual', 'merge']),
  value: z.string().nullable(),
});

/** Another artist an artist is tied to (a band and its members, a subgroup, a founder, a tribute act). */
export const Affiliation = z.object({
  mbid: z.string(),
  name: z.string(),
  /** `member`, `member_of`, `subgroup`, `founder`, `collaborator`, `tribute`, `family`. */
  relation: z.string(),
  begin: z.string().nullable(),
  end: z.string().nullable(),
  ended: z.boolean(),
});
/** Who wrote a track's work: the person, and the work it was credited on. */
export const Credit = z.object({ name: z.string(), mbid: z.string().nullable(), work: z.string().nullable() });
/** A page about the artist elsewhere: `official_site`, `streaming`, `wiki`, `social` or `other`, and the provider's own type. */
export const ExternalLink = z.object({ category: z.string(), type: z.string(), url: z.string() });

/** An artist's live albums and tracks, and the first and last year among its albums. */
export const Discography = z.object({ albums: z.number().int(), tracks: z.number().int(), first_year: z.number().int().nullable(), last_year: z.number().int().nullable() });

/** A track's lyrics as the lyrics drain or an on-demand look-up found them; `not_found` is "looked, found none". */
export const Lyrics = z.object({
  state: z.enum(['found', 'instrumental', 'not_found']),
  plain: z.string().nullable(),
  synced: z.array(z.object({ time_ms: z.number().int(), text: z.string() })).nullable(),
});

/**
 * A track's audio features from the features database (AcousticBrainz): tempo, key, and the
 * probabilities its classifiers gave each mood and genre. Null on the layer: looked up, none there.
 */
export const FeatureData = z.object({
  bpm: z.number().nullable(),
  /** `D major`, `F# minor`. */
  key: z.string().nullable(),
  /** `happy`, `sad`, `relaxed`, … → probability (0–1). */
  moods: z.record(z.string(), z.number()),
  /** `rock`, `jazz`, `folkcountry`, … → probability (0–1). */
  genres: z.record(z.string(), z.number()),
});

/**
 * Normalized facts one source reports about an entity: what a ref observed (FactsObserved) and
 * what an enrichment added (EntityEnriched). New kinds of facts are new optional fields here.
 */
export const Facts = z
  .object({
    name: z.string(),
    artist_id: z.string(),
    artist_name: z.string(),
    album_id: z.string(),
    album_title: z.string(),
    disc: z.number().int(),
    track_number: z.number().int(),
    isrc: z.string(),
    upc: z.string(),
    mbid: z.string(),
    year: z.number().int(),
    cover_url: z.string(),
    genres: z.array(z.string()),
    tags: z.array(z.string()),
    duration_ms: z.number().int(),
    preview_url: z.string(),
    catalog_id: z.string(),
    primary_type: z.string(),
    secondary_types: z.array(z.string()),
    audio_quality: z.object({ codec: z.string().nullable(), bit_depth: z.number().int().nullable(), sample_rate: z.number().int().nullable().optional(), lossless: z.boolean() }),
    alt_names: z.array(z.string()),
    external_links: z.array(ExternalLink),
    members: z.array(Affiliation),
    member_of: z.array(Affiliation),
    /** Ties other than membership (subgroup, founder, collaborator, tribute, family). */
    affiliations: z.array(Affiliation),
    credits: z.object({ composer: z.array(Credit), lyricist: z.array(Credit), writer: z.array(Credit) }),
    moods: z.array(z.string()),
    styles: z.array(z.string()),
    /** Artists: what their live albums and tracks add up to (the artist-reproject drain's). */
    discography: Discography,
    /** The tags drain's layer: how many raw tags, genres, moods and styles it unified; another count means unify again. */
    unified_from: z.number().int(),
    /** Tracks: read by GET /tracks/{id}/lyrics from the facts, not a doc column (too large for listings). */
    lyrics: Lyrics,
    /** Albums: record labels (the releasedb's). */
    labels: z.array(z.string()),
    /** Tracks: audio features (the features database's, read from the metabase recording ref); null when it has none. */
    feature_data: FeatureData.nullable(),
  })
  .partial();
export type Facts = z.infer<typeof Facts>;

const entity = { kind: Kind, id: z.string(), at: z.string() };
const ref = { source: Source, external_id: z.string() };

export const EntityRegistered = z.object({ ...entity });
export const RefLinked = z.object({ ...entity, ...ref, evidence: Evidence });
export const RefUnlinked = z.object({ ...entity, ...ref });
export const FactsObserved = z.object({ ...entity, ...ref, facts: Facts });
/** On the merged-away entity: it is tombstoned and points at its target. */
export const EntityMergedInto = z.object({ ...entity, target_id: z.string() });
/** On the target: what it took over. */
export const EntityAbsorbed = z.object({ ...entity, source_id: z.string(), refs: z.array(z.object(ref)) });
/**
 * On the merged-away entity: the merge is undone and it stands again with the refs it brought
 * (`evidence` as before the merge). `returning` lists the ids merged into it earlier, whose chains
 * end at it again.
 */
export const EntityUnmerged = z.object({ ...entity, target_id: z.string(), refs: z.array(z.object({ ...ref, evidence: Evidence })), returning: z.array(z.string()) });
/**
 * On the target of an undone merge: the refs it had taken over from the source leave it, and so do
 * the stand-alone enrichment layers (`enriched`, by source) it had adopted from it.
 */
export const EntityUnabsorbed = z.object({ ...entity, source_id: z.string(), refs: z.array(z.object(ref)), enriched: z.array(z.string()) });
export const RefClaimed = z.object({ kind: Kind, ...ref, entity_id: z.string(), at: z.string() });
export const RefReleased = z.object({ kind: Kind, ...ref, entity_id: z.string(), at: z.string() });

export const canonicalEventSchemas = {
  EntityRegistered,
  RefLinked,
  RefUnlinked,
  FactsObserved,
  EntityMergedInto,
  EntityAbsorbed,
  EntityUnmerged,
  EntityUnabsorbed,
  RefClaimed,
  RefReleased,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
export type EntityEvent =
  | { type: 'EntityRegistered'; data: Infer<typeof EntityRegistered> }
  | { type: 'RefLinked'; data: Infer<typeof RefLinked> }
  | { type: 'RefUnlinked'; data: Infer<typeof RefUnlinked> }
  | { type: 'FactsObserved'; data: Infer<typeof FactsObserved> }
  | { type: 'EntityMergedInto'; data: Infer<typeof EntityMergedInto> }
  | { type: 'EntityAbsorbed'; data: Infer<typeof EntityAbsorbed> }
  | { type: 'EntityUnmerged'; data: Infer<typeof EntityUnmerged> }
  | { type: 'EntityUnabsorbed'; data: Infer<typeof EntityUnabsorbed> };
export type RefClaimEvent = { type: 'RefClaimed'; data: Infer<typeof RefClaimed> } | { type: 'RefReleased'; data: Infer<typeof RefReleased> };
export type CanonicalEvent = EntityEvent | RefClaimEvent;
