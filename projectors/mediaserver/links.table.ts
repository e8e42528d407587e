/** mediaserver_links: one row per user who ever started a PIN or linked; credential ids, never tokens. */
export interface MediaserverLinksTable {
  username_key: string;
  username: string;
  /** Set while linked: the credentials row holding the user's token. */
  credential_id: string | null;
  account_id: number | null;
  account_uuid: string | null;
  account_username: string | null;
  account_title: string | null;
  account_thumb: string | null;
  linked_at: Date | null;
  /** Set while a PIN is pending. */
  pending_expires_at: Date | null;
  updated_at: Date;
}
