import type { CanonicalDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import type { ReleasePayload } from '../../infra/upstreams/metabase/schemas.ts';
import { foldName } from '../../shared/names.ts';

/**
 * The album's canonical tracks that a release's tracklist names at the same (disc, position),
 * when the two agree: the same title, or tracklists of the same length. Tracks with a metabase ref
 * already are left alone.
 */
export function matchTracks(tracks: CanonicalDoc[], release: ReleasePayload): { trackId: string; recording: string }[] {
  const rows = (release.media ?? []).flatMap((m) => (m.tracks ?? []).map((t) => ({ disc: m.position, position: t.position, title: t.title, recording: t.recording.id })));
  const sameLength = rows.length === tracks.length;
  const matches: { trackId: string; recording: string }[] = [];
  for (const track of tracks) {
    if (track.refs.some((r) => r.source === 'metabase') || track.track_number === null) continue;
    const row = rows.find((r) => r.disc === (track.disc ?? 1) && r.position === track.track_number);
    if (!row) continue;
    if (sameLength || foldName(row.title) === foldName(track.title ?? '')) matches.push({ trackId: track.id, recording: row.recording });
  }
  return matches;
}
