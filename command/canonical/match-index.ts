import type { Kind } from '../../shared/events/canonical.events.ts';

/** What matching reads of an entity: its doc's identifiers and name key, as the read model has them. */
export interface Entry {
  id: string;
  kind: Kind;
  createdAt: number;
  isrc: string | null;
  upc: string | null;
  mbid: string | null;
  name_folded: string | null;
  artist_id: string | null;
}

const KEYED = ['isrc', 'upc', 'mbid', 'name_folded'] as const;
export type MatchKey = (typeof KEYED)[number];

/** Live entities by each identifier and name key, oldest first, as the read model's indexes find them. */
export class MatchIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly byKey = new Map<string, Set<string>>();

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get(id: string): Entry | undefined {
    return this.entries.get(id);
  }

  find(kind: Kind, key: MatchKey, value: string): Entry[] {
    const ids = this.byKey.get(`${kind}|${key}|${value}`);
    if (!ids) return [];
    return [...ids].map((id) => this.entries.get(id)!).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Adds or replaces an entity's entry (its doc changed). */
  put(entry: Entry): void {
    const old = this.entries.get(entry.id);
    if (old) for (const key of KEYED) if (old[key]) this.byKey.get(`${old.kind}|${key}|${old[key]}`)?.delete(old.id);
    this.entries.set(entry.id, entry);
    for (const key of KEYED) {
      if (!entry[key]) continue;
      const k = `${entry.kind}|${key}|${entry[key]}`;
      if (!this.byKey.has(k)) this.byKey.set(k, new Set());
      this.byKey.get(k)!.add(entry.id);
    }
  }
}
