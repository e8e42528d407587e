import { z } from 'zod';
import { foldName } from '../../shared/names.ts';

/** The five shelves of an artist page, in the order they are shown. */
export const BUCKETS = ['Studio', 'Live', 'Compilations', 'EPs & Singles', 'Other'] as const;
export type Bucket = (typeof BUCKETS)[number];

export const ORIGINS = ['canonical', 'metabase', 'catalog', 'scrobbler'] as const;

export const DiscographyCard = z.object({
  /** The canonical album, or null for a fallback card (not in the canonical layer yet). */
  id: z.string().nullable(),
  title: z.string(),
  title_folded: z.string(),
  year: z.number().int().nullable(),
  primary_type: z.string().nullable(),
  secondary_types: z.array(z.string()),
  cover_url: z.string().nullable(),
  /** Where the card comes from: the canonical layer, or the source of a fallback. */
  origin: z.enum(ORIGINS),
  canonical: z.boolean(),
  playable: z.boolean(),
  mbid: z.string().nullable(),
  catalog_id: z.string().nullable(),
}).meta({ id: 'DiscographyCard' });
export type DiscographyCard = z.infer<typeof DiscographyCard>;

/**
 * A card's shelf from its release types: compilations and live recordings first (whatever their
 * primary type), then studio albums, EPs and singles; everything else (soundtracks, remixes,
 * broadcasts, unknown) is Other. A canonical album with no type at all is taken for a studio
 * album, the usual case of files on the user's server; a fallback card without one is Other.
 */
export function bucketOf(card: Pick<DiscographyCard, 'primary_type' | 'secondary_types' | 'canonical'>): Bucket {
  const secondary = card.secondary_types.map((t) => t.toLowerCase());
  const primary = card.primary_type?.toLowerCase() ?? null;
  if (secondary.includes('compilation')) return 'Compilations';
  if (secondary.includes('live')) return 'Live';
  if (primary === null) return card.canonical ? 'Studio' : 'Other';
  if (primary === 'album') return secondary.length === 0 ? 'Studio' : 'Other';
  if (primary === 'ep' || primary === 'single') return 'EPs & Singles';
  return 'Other';
}

/**
 * The shelves: cards in the order given (canonical first, then each fallback source), each folded
 * title once (the first card wins); on each shelf the canonical albums, then the fallback cards,
 * each newest first (undated last, then by title).
 */
export function shelve(cards: DiscographyCard[]): { name: Bucket; items: DiscographyCard[] }[] {
  const seen = new Set<string>();
  const kept = cards.filter((c) => {
    if (c.title_folded === '' || seen.has(c.title_folded)) return false;
    seen.add(c.title_folded);
    return true;
  });
  const newestFirst = (a: DiscographyCard, b: DiscographyCard) =>
    Number(b.canonical) - Number(a.canonical) || (b.year ?? -Infinity) - (a.year ?? -Infinity) || a.title_folded.localeCompare(b.title_folded);
  return BUCKETS.map((name) => ({ name, items: kept.filter((c) => bucketOf(c) === name).sort(newestFirst) }));
}

/** A fallback card from what a source says about a release it lists. */
export function fallbackCard(origin: Exclude<(typeof ORIGINS)[number], 'canonical'>, fields: Partial<DiscographyCard> & { title: string }): DiscographyCard {
  return {
    id: null, year: null, primary_type: null, secondary_types: [], cover_url: null, mbid: null, catalog_id: null,
    ...fields,
    title_folded: foldName(fields.title),
    origin,
    canonical: false,
    playable: false,
  };
}
