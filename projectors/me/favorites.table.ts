/**
 * Personal read models. `recorded_id` is the id a stream was written under and never changes;
 * `canonical_id` follows merges (re-keyed onto the end of the chain), so it is not unique per user:
 * readers group by it.
 */
export interface FavoritesTable {
  username_key: string;
  kind: string;
  recorded_id: string;
  canonical_id: string;
  added_at: Date;
}
