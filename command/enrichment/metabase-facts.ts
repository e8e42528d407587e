import { z } from 'zod';
import { type Relation, Relations, ReleasePayload } from '../../infra/upstreams/metabase/schemas.ts';
import type { MetabaseObject } from '../../infra/upstreams/metabase/schemas.ts';
import type { Facts } from '../../shared/events/canonical.events.ts';

/**
 * The normalized facts a metabase payload gives the canonical layer. Pure: the drains fetch
 * (through the cache), these read. See docs/metabase.md for the choices.
 */

const Named = z.array(z.looseObject({ name: z.string() }));
const Tags = z.array(z.looseObject({ name: z.string(), count: z.number().optional() }));
const TOP_TAGS = 10;

const yearOf = (date: unknown) => (typeof date === 'string' && /^\d{4}/.test(date) ? { year: Number(date.slice(0, 4)) } : {});
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const names = (value: unknown) => [...new Set((Named.safeParse(value).data ?? []).map((n) => n.name))];
const genres = (p: MetabaseObject) => ({ genres: names(p.genres) });
function tags(p: MetabaseObject): Facts {
  const top = (Tags.safeParse(p.tags).data ?? []).sort((a, b) => (b.count ?? 0) - (a.count ?? 0)).slice(0, TOP_TAGS);
  return { tags: top.map((t) => t.name) };
}

/** An artist: its name, every other name it goes by (aliases), genres and top tags. */
export function artistFacts(p: MetabaseObject): Facts {
  return { ...(text(p.name) ? { name: String(p.name) } : {}), mbid: String(p.id), alt_names: names(p.aliases), ...genres(p), ...tags(p) };
}

/**
 * A release group is the album: title, first release year, types, genres. Not its MBID nor a
 * barcode: the canonical layer matches albums by those, and an album's MBID elsewhere (the
 * scrobbler's) names a release, so setting the group's would keep that album from matching it.
 * The album's metabase refs say which release and group it is.
 */
export function releaseGroupFacts(p: MetabaseObject): Facts {
  return {
    ...(text(p.title) ? { name: String(p.title) } : {}),
    ...yearOf(p['first-release-date']),
    ...(text(p['primary-type']) ? { primary_type: String(p['primary-type']) } : {}),
    secondary_types: z.array(z.string()).safeParse(p['secondary-types']).data ?? [],
    ...genres(p),
  };
}

/**
 * A release is one edition of the album: the types its release group gives (the same values a
 * release-group ref gives, so two refs of one album never contradict each other). Its barcode is
 * not taken: the album's own (a UPC where the metabase may hold the EAN twin) is what matches it.
 */
export function releaseFacts(p: MetabaseObject): Facts {
  const group = ReleasePayload.parse(p)['release-group'];
  if (!group) return {};
  return { ...(text(group['primary-type']) ? { primary_type: group['primary-type']! } : {}), secondary_types: group['secondary-types'] ?? [] };
}

/**
 * A recording is the track: title, length, genres. Not an ISRC: a recording carries several, and
 * the track's own (from the files or the catalog) is what matches it elsewhere.
 */
export function recordingFacts(p: MetabaseObject): Facts {
  const length = typeof p.length === 'number' && Number.isInteger(p.length) && p.length > 0 ? { duration_ms: p.length } : {};
  return { ...(text(p.title) ? { name: String(p.title) } : {}), mbid: String(p.id), ...length, ...genres(p) };
}

export const relationsOf = (p: MetabaseObject): Relation[] => Relations.safeParse(p.relations ?? []).data ?? [];

const LINK_CATEGORY: Record<string, string> = {
  'official homepage': 'official_site',
  streaming: 'streaming',
  'free streaming': 'streaming',
  'streaming music': 'streaming',
  'purchase for download': 'store',
  bandcamp: 'streaming',
  soundcloud: 'streaming',
  youtube: 'video',
  'video channel': 'video',
  wikipedia: 'wiki',
  wikidata: 'wiki',
  'social network': 'social',
  myspace: 'social',
};

/** The artist's ties the related-artists page shows, by the metabase's relation types. */
const AFFILIATION: Record<string, string> = {
  subgroup: 'subgroup',
  founder: 'founder',
  collaboration: 'collaborator',
  tribute: 'tribute',
  parent: 'family',
  sibling: 'family',
  married: 'family',
  'involved with': 'family',
};

/** External links and ties to other artists from an artist looked up with url and artist relations. */
export function artistRelationFacts(p: MetabaseObject): Facts {
  const relations = relationsOf(p);
  const links = relations.filter((r) => r['target-type'] === 'url' && r.url).map((r) => ({ category: LINK_CATEGORY[r.type] ?? 'other', type: r.type, url: r.url!.resource }));
  const tie = (r: Relation, relation: string) => ({
    mbid: r.artist!.id, name: r.artist!.name, relation, begin: r.begin ?? null, end: r.end ?? null, ended: r.ended ?? false,
  });
  const artists = relations.filter((r) => r['target-type'] === 'artist' && r.artist);
  const membership = artists.filter((r) => r.type === 'member of band');
  return {
    external_links: links,
    members: membership.filter((r) => r.direction === 'backward').map((r) => tie(r, 'member')),
    member_of: membership.filter((r) => r.direction !== 'backward').map((r) => tie(r, 'member_of')),
    affiliations: artists.filter((r) => AFFILIATION[r.type]).map((r) => tie(r, AFFILIATION[r.type]!)),
  };
}

/** The works a recording performs (its `performance` relations). */
export function worksOf(recording: MetabaseObject): { id: string; title: string }[] {
  return relationsOf(recording).filter((r) => r['target-type'] === 'work' && r.work).map((r) => ({ id: r.work!.id, title: r.work!.title }));
}

type Role = 'composer' | 'lyricist' | 'writer';
const ROLES: Role[] = ['composer', 'lyricist', 'writer'];

/** Composer, lyricist and writer credits of the works (looked up with artist relations), each person once per role. */
export function creditFacts(works: MetabaseObject[]): Facts {
  const credits: Record<Role, { name: string; mbid: string | null; work: string | null }[]> = { composer: [], lyricist: [], writer: [] };
  for (const work of works) {
    for (const r of relationsOf(work)) {
      const role = ROLES.find((x) => x === r.type);
      if (!role || r['target-type'] !== 'artist' || !r.artist) continue;
      if (credits[role].some((c) => c.mbid === r.artist!.id)) continue;
      credits[role].push({ name: r.artist.name, mbid: r.artist.id, work: text(work.title) ?? null });
    }
  }
  return { credits };
}
