/** Each user's radio sessions, active and ended. */
export interface RadioSessionsTable {
  session_id: string;
  username_key: string;
  username: string;
  seed_kind: string;
  seed_id: string;
  seed_label: string;
  /** How many playable candidates the seed found; `pool_count` of them are kept in the session's pool. */
  pool_size: number;
  pool_count: number;
  track_count: number;
  started_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

/** Every track a session picked, with why, and what the listener did with it. */
export interface RadioPicksTable {
  session_id: string;
  position: number;
  canonical_track_id: string;
  artist_id: string | null;
  score: number;
  reason: string;
  outcome: string | null;
  /** The last thumb (`up`, `down`) given to this track during the session. */
  feedback: string | null;
  picked_at: Date;
}
