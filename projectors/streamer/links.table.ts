/** streamer_links: one row per user who ever linked; the identity only, never a token. */
export interface StreamerLinksTable {
  username_key: string;
  username: string;
  /** Null once unlinked. */
  account_id: string | null;
  display_name: string | null;
  linked_at: Date | null;
  /** `linked` or `needs_relink`; null once unlinked. */
  state: string | null;
  state_reason: string | null;
  updated_at: Date;
}
