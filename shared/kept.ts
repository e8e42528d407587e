/** Values kept in memory by key; past `max` keys the least recently kept is dropped. */
export class Kept<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }

  /** Keeps `value` as the most recent; answers the values, least recently kept first. */
  keep(key: string, value: V): this {
    this.delete(key);
    this.set(key, value);
    if (this.size > this.max) this.delete(this.keys().next().value!);
    return this;
  }
}
