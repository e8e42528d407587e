/**
 * A user's radio feedback per session and track: thumbs (`ups`, `downs`, disliked outcomes count
 * as downs) and skips. Kept per session so a pick can weigh the other sessions apart from its own.
 */
export interface RadioFeedbackTable {
  username_key: string;
  session_id: string;
  canonical_track_id: string;
  artist_id: string | null;
  ups: number;
  downs: number;
  skips: number;
  updated_at: Date;
}
