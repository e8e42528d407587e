import type { Json } from './state.ts';

/** An entity payload with the fields every builder reads back. */
export type Entity = Json & { id: string; name?: string; title?: string };

/** Payloads in the recorded shapes, for what the fixtures do not hold (relations, works, credits). */
let counter = 0;
/** A fresh MBID-shaped id. */
export const mbid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

const relation = (type: string, targetType: string, direction: string, target: Json, extra: Json = {}) => ({
  type, 'type-id': mbid(), direction, 'target-type': targetType, begin: null, end: null, ended: false, attributes: [], 'attribute-values': {},
  'source-credit': '', 'target-credit': '', [targetType]: target, ...extra,
});

export const urlRel = (type: string, resource: string) => relation(type, 'url', 'forward', { id: mbid(), resource });
export const artistRel = (type: string, direction: 'forward' | 'backward', artist: { id: string; name: string }, extra: Json = {}) =>
  relation(type, 'artist', direction, { id: artist.id, name: artist.name, 'sort-name': artist.name, disambiguation: '' }, extra);
export const workRel = (work: { id: string; title: string }) => relation('performance', 'work', 'forward', { id: work.id, title: work.title, language: 'eng', disambiguation: '' });

export const credit = (artist: { id: string; name: string }) => [{ name: artist.name, joinphrase: '', artist: { id: artist.id, name: artist.name, 'sort-name': artist.name, disambiguation: '' } }];

export function artist(fields: { id?: string; name: string; type?: string; aliases?: string[]; relations?: Json[] }): Entity & { name: string } {
  return {
    id: fields.id ?? mbid(), name: fields.name, 'sort-name': fields.name, type: fields.type ?? 'Group', disambiguation: '', 'life-span': { begin: null, end: null, ended: false },
    aliases: (fields.aliases ?? []).map((name) => ({ name, 'sort-name': name, type: 'Search hint', primary: null, locale: null, begin: null, end: null, ended: false })),
    tags: [], genres: [], relations: fields.relations ?? [],
  };
}

export function releaseGroup(fields: { id?: string; title: string; by: { id: string; name: string }; primary?: string | null; secondary?: string[]; date?: string }): Entity & { title: string } {
  return {
    id: fields.id ?? mbid(), title: fields.title, 'primary-type': fields.primary === undefined ? 'Album' : fields.primary, 'secondary-types': fields.secondary ?? [],
    'first-release-date': fields.date ?? '', disambiguation: '', 'artist-credit': credit(fields.by), tags: [], genres: [],
  };
}

export function recording(fields: { id?: string; title: string; isrcs?: string[]; works?: { id: string; title: string }[]; by?: { id: string; name: string } }): Entity & { title: string } {
  return {
    id: fields.id ?? mbid(), title: fields.title, length: 200000, disambiguation: '', video: false, isrcs: fields.isrcs ?? [],
    'artist-credit': fields.by ? credit(fields.by) : [], relations: (fields.works ?? []).map(workRel), tags: [], genres: [],
  };
}

export function work(fields: { id?: string; title: string; composers?: { id: string; name: string }[]; lyricists?: { id: string; name: string }[]; writers?: { id: string; name: string }[] }): Entity & { title: string } {
  const rels = (type: string, people: { id: string; name: string }[] = []) => people.map((p) => artistRel(type, 'backward', p));
  return {
    id: fields.id ?? mbid(), title: fields.title, type: 'Song', language: 'eng', disambiguation: '', aliases: [], tags: [], genres: [],
    relations: [...rels('composer', fields.composers), ...rels('lyricist', fields.lyricists), ...rels('writer', fields.writers)],
  };
}

/** A release with its release group and tracklist (media), as a lookup with recordings answers it. */
export function release(fields: { id?: string; title: string; barcode: string; group: Json; tracks: { title: string; recording: Json; disc?: number }[] }): Entity & { title: string } {
  const discs = new Map<number, Json[]>();
  for (const t of fields.tracks) discs.set(t.disc ?? 1, [...(discs.get(t.disc ?? 1) ?? []), t]);
  return {
    id: fields.id ?? mbid(), title: fields.title, barcode: fields.barcode, status: 'Official', date: fields.group['first-release-date'] ?? '', disambiguation: '',
    'release-group': fields.group, 'artist-credit': fields.group['artist-credit'],
    media: [...discs].map(([position, tracks]) => ({
      position, format: 'CD', 'track-count': tracks.length, 'track-offset': 0,
      tracks: tracks.map((t, i) => ({ id: mbid(), position: i + 1, number: String(i + 1), title: t.title, length: 200000, recording: { id: t.recording.id, title: t.recording.title } })),
    })),
  };
}
