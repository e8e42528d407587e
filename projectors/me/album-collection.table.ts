/** Wished-for and owned albums; `recorded_id` and `canonical_id` as in `favorites.table.ts`. */
export interface AlbumCollectionTable {
  username_key: string;
  recorded_id: string;
  canonical_id: string;
  status: 'wishlisted' | 'owned';
  wishlisted_at: Date | null;
  owned_at: Date | null;
}
