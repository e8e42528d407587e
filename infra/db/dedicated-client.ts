import type pg from 'pg';

/**
 * A PostgreSQL connection of its own, outside any pool: what an advisory lock held for the process
 * or a LISTEN needs. The driver loads on first use, so the embedded default never loads it.
 */
export async function dedicatedClient(connectionString: string, purpose: string): Promise<pg.Client> {
  const { default: driver } = await import('pg');
  return new driver.Client({ connectionString, application_name: `music-library ${purpose}`, keepAlive: true });
}
