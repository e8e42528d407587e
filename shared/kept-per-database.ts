import { Kept } from './kept.ts';

/**
 * Values kept in memory per database handle (tests run several services, each on its own
 * database, in one process), by key; past `max` keys the least recently kept is dropped.
 */
export class KeptPerDatabase<V> {
  private readonly byDatabase = new WeakMap<object, Kept<V>>();

  constructor(private readonly max: number) {}

  get(db: object, key: string): V | undefined {
    return this.byDatabase.get(db)?.get(key);
  }

  /** Keeps `value` as the most recent; answers the database's values, least recently kept first. */
  set(db: object, key: string, value: V): Map<string, V> {
    let byKey = this.byDatabase.get(db);
    if (!byKey) this.byDatabase.set(db, (byKey = new Kept(this.max)));
    return byKey.keep(key, value);
  }
}
