import type { ColumnType } from 'kysely';

export interface UsersTable {
  /** Lowercased username: the uniqueness key. */
  username_key: string;
  username: string;
  role: string;
  display_name: string | null;
  email: string | null;
  preferences: ColumnType<Record<string, unknown>, string, string>;
  scrobbler_username: string | null;
  credential_id: string | null;
  /** Bumped by every event that ends the user's sessions; tokens carry the value they were issued at. */
  session_version: number;
  deleted: boolean;
  created_at: Date;
  updated_at: Date;
}
