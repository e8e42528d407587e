export interface CredentialsTable {
  credential_id: string;
  owner: string;
  kind: string;
  secret: string;
  /** 1: sealed without associated data (before migration 0018, re-sealed at start); 2: bound to credential_id. */
  seal_version: number;
  created_at: Date;
}
