/** auth_attempts: the attempts the throttles count when several processes share one PostgreSQL database. */
export interface AuthAttemptsTable {
  /** Which throttle counts it (`login`, `registration`). */
  scope: string;
  key: string;
  /** Milliseconds since the epoch, by the clock of the process that counted it. */
  at: number;
  /** When the attempt leaves its throttle's window; past it the row is deleted. */
  expires_at: number;
}
