import type { Kind } from '../../shared/events/canonical.events.ts';

/**
 * What `POST /admin/canonical/migrate` walks. Each slice that keeps canonical ids in a table of its
 * own registers it here (a side-effect import next to its table), so that a merge never strands
 * a favorite, a comment or a scrobble on a merged-away id.
 */
export interface Rekeyer {
  table: string;
  /** The columns that hold canonical ids, and the kind of each: fixed, or named (artist|album|track) by another column of the row. */
  columns: { column: string; kind: Kind | { column: string } }[];
  /**
   * Unique keys of the table that include a re-keyed column. A row whose re-keyed key already
   * exists is a duplicate of that row (the user favorited both halves of a merge), and is deleted.
   */
  unique?: string[][];
  /**
   * A row whose id is unknown to the event log: user-action records (favorites, comments) delete it;
   * imported history keeps it (`keep`) or forgets the link (`null`).
   */
  unresolvable: 'delete' | 'keep' | 'null';
}

const rekeyers = new Map<string, Rekeyer>();

/** Registers a table; returns the undo (tests register tables of their own). */
export function registerRekeyer(rekeyer: Rekeyer): () => void {
  if (rekeyers.has(rekeyer.table)) throw new Error(`re-keyer for ${rekeyer.table} registered twice`);
  rekeyers.set(rekeyer.table, rekeyer);
  return () => void rekeyers.delete(rekeyer.table);
}

export const registeredRekeyers = (): Rekeyer[] => [...rekeyers.values()];
