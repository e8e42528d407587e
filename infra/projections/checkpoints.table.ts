export type CheckpointState = 'live' | 'rebuilding' | 'stalled';

/** projection_checkpoints: each projector's version, position and health. */
export interface ProjectionCheckpointsTable {
  name: string;
  version: number;
  position: string;
  state: CheckpointState;
  stalled_since: Date | null;
  stalled_event_position: string | null;
  stalled_event_id: string | null;
  stalled_stream: string | null;
  stalled_event_type: string | null;
  stalled_error: string | null;
  updated_at: Date;
}
