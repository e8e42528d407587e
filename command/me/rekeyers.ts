import type { Kind } from '../../shared/events/canonical.events.ts';

/**
 * Where personal data holds canonical ids, for tools that re-key user data onto the end of merge
 * chains (`POST /admin/canonical/migrate`). The `me` projectors already re-key these columns when
 * they see `EntityMergedInto`, and readers resolve chains again, so re-keying is idempotent.
 * Nothing unique rests on these columns: a plain UPDATE never collides (rows of one user that meet
 * on the same id are grouped by readers). `kind` is fixed, or read from `kindColumn`.
 */
export interface RekeyTarget {
  table: 'favorites' | 'album_collection' | 'comments';
  idColumn: 'canonical_id';
  kind: Kind | { kindColumn: 'kind' };
}

export const meRekeyTargets: readonly RekeyTarget[] = [
  { table: 'favorites', idColumn: 'canonical_id', kind: { kindColumn: 'kind' } },
  { table: 'album_collection', idColumn: 'canonical_id', kind: 'album' },
  { table: 'comments', idColumn: 'canonical_id', kind: { kindColumn: 'kind' } },
];
