/** reactor_checkpoints: how far each reactor (a processor with side effects upstream) has read the log. */
export interface ReactorCheckpointsTable {
  name: string;
  position: string;
  updated_at: Date;
}
