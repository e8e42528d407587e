/** Live notes (deleted ones leave the table; their history stays in the log). `canonical_id` follows merges. */
export interface CommentsTable {
  comment_id: string;
  username_key: string;
  /** As the author spells it. */
  username: string;
  kind: string;
  /** The id the note was written under (an unmerge sends it back there); `canonical_id` follows merges. */
  recorded_id: string | null;
  canonical_id: string;
  body: string;
  edited: boolean;
  created_at: Date;
  updated_at: Date;
}
