import { registerRekeyer, type Rekeyer } from '../canonical/migrate-rekeyers.ts';

/**
 * Where personal data holds canonical ids, for `POST /admin/canonical/migrate`. The `me` projectors
 * already re-key these columns when they see `EntityMergedInto` and readers resolve chains again,
 * so this only repairs rows projected before a merge was known. Nothing unique rests on these
 * columns, and rows are kept when their id is unknown: they are rebuilt from the log, where a
 * note on an id the canonical layer never knew is legitimate.
 */
export const meRekeyers: Rekeyer[] = [
  { table: 'favorites', columns: [{ column: 'canonical_id', kind: { column: 'kind' } }], unresolvable: 'keep' },
  { table: 'album_collection', columns: [{ column: 'canonical_id', kind: 'album' }], unresolvable: 'keep' },
  { table: 'comments', columns: [{ column: 'canonical_id', kind: { column: 'kind' } }], unresolvable: 'keep' },
];

for (const rekeyer of meRekeyers) registerRekeyer(rekeyer);
