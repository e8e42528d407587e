import type { ColumnType } from 'kysely';

/** mediaserver_servers: what each server said of itself at the last libraries refresh. */
export interface MediaserverServersTable {
  server_id: string;
  friendly_name: string | null;
  version: string | null;
  platform: string | null;
  platform_version: string | null;
  listed_at: Date;
}

/** mediaserver_sections: the server's libraries; one gone from its listing is kept, not present. */
export interface MediaserverSectionsTable {
  server_id: string;
  section_id: string;
  type: string;
  title: string;
  agent: string | null;
  uuid: string | null;
  server_updated_at: number | null;
  present: boolean;
  last_synced_at: Date | null;
  last_sync: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

/** mediaserver_items: the mirror of every synced item; items gone from the server stay, deleted. */
export interface MediaserverItemsTable {
  server_id: string;
  rating_key: string;
  section_id: string;
  kind: string;
  title: string;
  title_folded: string;
  parent_rating_key: string | null;
  grandparent_rating_key: string | null;
  parent_title: string | null;
  grandparent_title: string | null;
  item_index: number | null;
  disc: number | null;
  year: number | null;
  duration_ms: number | null;
  thumb: string | null;
  genres: ColumnType<string[], string, string>;
  added_at: number | null;
  server_updated_at: number | null;
  view_count: number | null;
  last_viewed_at: number | null;
  user_rating: number | null;
  codec: string | null;
  container: string | null;
  bit_depth: number | null;
  sampling_rate: number | null;
  bitrate: number | null;
  lossless: boolean | null;
  size: number | null;
  part_id: number | null;
  part_key: string | null;
  canonical_id: string | null;
  deleted: boolean;
  deleted_at: Date | null;
  synced_at: Date;
}
