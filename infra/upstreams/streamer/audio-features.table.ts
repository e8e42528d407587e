import type { ColumnType } from 'kysely';

/** streamer_audio_features: the API's features of a track (null: the API had none for it). */
export interface StreamerAudioFeaturesTable {
  track_id: string;
  features: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  fetched_at: Date;
}
