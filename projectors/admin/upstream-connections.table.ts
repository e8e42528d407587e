/** upstream_connections: one row per user and upstream while linked: when it was linked, when it last synced. */
export interface UpstreamConnectionsTable {
  username_key: string;
  upstream: string;
  username: string;
  linked_at: Date;
  /** The last sync or refresh that brought the account's data in, even when it found nothing new. */
  last_sync_at: Date | null;
}
