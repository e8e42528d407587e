import { z } from 'zod';
import { Facts, Kind, SOURCES, Source } from './canonical.events.ts';

/**
 * Enrichment: facts a drain or a lookup adds to an entity after the fact, on the entity's own
 * stream (`artist-<id>`, …), so that a rebuild reproduces every doc without the network and the
 * entity's history says where each fact came from. See docs/enrichment.md.
 */

/**
 * Who vouches for enriched facts: a source of refs, a provider with no refs of its own, or a
 * drain that computes facts from the others (`tags` unifies tags, moods and styles;
 * `discography` adds up an artist's albums and tracks).
 */
export const ENRICHMENT_SOURCES = [...SOURCES, 'lyrics', 'tags', 'discography'] as const;
export const EnrichmentSource = z.enum(ENRICHMENT_SOURCES);
export type EnrichmentSource = z.infer<typeof EnrichmentSource>;

/**
 * The drain an error row is filed under (`hydrate_mb`, `promote_scrobbler`, `isrc_link`, …; the
 * known ones are listed in shared/enrichment/error-sources.ts). A pattern, not an enum, so that a
 * new drain files its errors without changing this event.
 */
export const ErrorSource = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/);

const entity = { kind: Kind, id: z.string(), at: z.string() };

/**
 * Facts from `source` about the entity. With `ref`, they were read from that ref's record upstream
 * and go away if the ref is unlinked; a later enrichment from the same source and ref adds to them
 * field by field (a field it names replaces the earlier value).
 */
export const EntityEnriched = z.object({
  ...entity,
  source: EnrichmentSource,
  ref: z.object({ source: Source, external_id: z.string() }).nullable(),
  facts: Facts,
});
/** A drain could not enrich the entity: one error row per (source, kind, entity) until it succeeds. */
export const EnrichmentFailed = z.object({ ...entity, source: ErrorSource, error: z.string().max(1000) });
/** The drain that had failed on the entity succeeded on it: its error row goes away. */
export const EnrichmentRecovered = z.object({ ...entity, source: ErrorSource });
/** An admin cleared the error rows, of one source or all (stream `enrichmenterrors-all`). */
export const EnrichmentErrorsCleared = z.object({ source: ErrorSource.nullable(), at: z.string() });

export const enrichmentEventSchemas = {
  EntityEnriched,
  EnrichmentFailed,
  EnrichmentRecovered,
  EnrichmentErrorsCleared,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
/** The enrichment events that live on an entity's stream. */
export type EntityEnrichmentEvent =
  | { type: 'EntityEnriched'; data: Infer<typeof EntityEnriched> }
  | { type: 'EnrichmentFailed'; data: Infer<typeof EnrichmentFailed> }
  | { type: 'EnrichmentRecovered'; data: Infer<typeof EnrichmentRecovered> };
export type EnrichmentEvent = EntityEnrichmentEvent | { type: 'EnrichmentErrorsCleared'; data: Infer<typeof EnrichmentErrorsCleared> };
