/**
 * A user's radio feedback, one row per fact: a thumb (`up`, `down`), a `disliked` outcome (as
 * `down`) or a `skipped` one (`skip`). Kept with its session so a pick can weigh the other
 * sessions apart from its own; keyed by event so a replayed event is never counted twice.
 */
export interface RadioFeedbackTable {
  event_id: string;
  username_key: string;
  session_id: string;
  canonical_track_id: string;
  artist_id: string | null;
  signal: 'up' | 'down' | 'skip';
  given_at: Date;
}
