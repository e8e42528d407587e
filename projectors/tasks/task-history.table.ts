import type { ColumnType } from 'kysely';

type Json = ColumnType<Record<string, unknown>, string, string>;
type NullableJson = ColumnType<Record<string, unknown> | null, string | null, string | null>;

export interface TaskHistoryTable {
  task_id: string;
  name: string;
  status: string;
  started_by: string | null;
  params: Json;
  progress: NullableJson;
  summary: NullableJson;
  error: string | null;
  cancel_requested: boolean;
  started_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}
