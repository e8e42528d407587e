import { registerRekeyer } from '../canonical/migrate-rekeyers.ts';

/**
 * The scrobble mirror's canonical stamps, for `POST /admin/canonical/migrate`. A stamp whose id the
 * log does not know is imported history, not a user's choice: the scrobble stays, unlinked.
 */
registerRekeyer({
  table: 'scrobbles',
  columns: [
    { column: 'canonical_artist_id', kind: 'artist' },
    { column: 'canonical_album_id', kind: 'album' },
    { column: 'canonical_track_id', kind: 'track' },
  ],
  unresolvable: 'null',
});
