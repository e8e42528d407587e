import { z } from 'zod';

/**
 * What the service reads of the metabase's answers. Answers are kept whole (the proxy serves
 * them in the provider's own shape); these schemas check the parts the service relies on.
 */
export const MetabaseObject = z.record(z.string(), z.unknown());
export type MetabaseObject = z.infer<typeof MetabaseObject>;

/** `{created, count, offset, <entities>: [...]}`; every hit has an integer `score`. Kept whole. */
export const SearchAnswer = z.looseObject({ count: z.number().int().optional(), offset: z.number().int().optional() });

export const IsrcAnswer = z.looseObject({
  isrc: z.string(),
  recordings: z.array(z.looseObject({ id: z.string(), title: z.string() })),
});
export type IsrcAnswer = z.infer<typeof IsrcAnswer>;

/** An artist credit as lookups and searches embed it. */
const ArtistCredit = z.array(z.looseObject({ name: z.string(), artist: z.looseObject({ id: z.string(), name: z.string() }) }));

/** A release looked up with recordings and its release group. */
export const ReleasePayload = z.looseObject({
  id: z.string(),
  title: z.string(),
  barcode: z.string().nullable().optional(),
  date: z.string().optional(),
  status: z.string().nullable().optional(),
  'release-group': z.looseObject({ id: z.string(), title: z.string(), 'primary-type': z.string().nullable().optional(), 'secondary-types': z.array(z.string()).optional(), 'first-release-date': z.string().optional() }).optional(),
  'artist-credit': ArtistCredit.optional(),
  media: z
    .array(
      z.looseObject({
        position: z.number().int(),
        tracks: z.array(z.looseObject({ position: z.number().int(), title: z.string(), recording: z.looseObject({ id: z.string(), title: z.string() }) })).optional(),
      }),
    )
    .optional(),
});
export type ReleasePayload = z.infer<typeof ReleasePayload>;

/** A relation as lookups with `*-rels` carry them. */
export const Relation = z.looseObject({
  type: z.string(),
  direction: z.string().optional(),
  'target-type': z.string(),
  begin: z.string().nullable().optional(),
  end: z.string().nullable().optional(),
  ended: z.boolean().optional(),
  url: z.looseObject({ resource: z.string() }).optional(),
  artist: z.looseObject({ id: z.string(), name: z.string() }).optional(),
  work: z.looseObject({ id: z.string(), title: z.string() }).optional(),
});
export type Relation = z.infer<typeof Relation>;
export const Relations = z.array(Relation);
