import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { type RefFacts, composeFromFacts, jsonbKeyOrder, stableJson } from '../../shared/canonical/doc-facts.ts';
import { type Evidence, Facts, type Kind } from '../../shared/events/canonical.events.ts';
import { foldName } from '../../shared/names.ts';
import { type Entry, MatchIndex } from './match-index.ts';
import type { Observation } from './observation.ts';

type EvidenceT = z.infer<typeof Evidence>;
export type Match = { id: string; evidence: EvidenceT };

const EXACT: Record<Kind, ('isrc' | 'upc' | 'mbid')[]> = { artist: ['mbid'], album: ['upc', 'mbid'], track: ['isrc', 'mbid'] };

/** Another exact identifier on both sides that differs: never join these by name. */
const conflicts = (candidate: Entry, facts: Facts) => (['isrc', 'upc', 'mbid'] as const).some((k) => candidate[k] && facts[k] && candidate[k] !== facts[k]);

/**
 * The read model as one batch of observations needs it, loaded in a few queries at the start
 * (owners of the batch's refs, live entities sharing one of its identifiers or name keys), then
 * kept current in memory as the batch decides links and facts: matching within a batch sees what
 * the projector would have written after each observation.
 */
export class ReconcileView {
  private readonly owners = new Map<string, string>();
  private readonly index = new MatchIndex();
  private readonly facts = new Map<string, RefFacts>();
  private readonly redirects = new Map<string, string>();

  private constructor(private readonly db: Kysely<Database>) {}

  static async load(db: Kysely<Database>, observations: Observation[]): Promise<ReconcileView> {
    const view = new ReconcileView(db);
    const all = flatten(observations);
    await view.loadOwners(all);
    await view.loadCandidates(all);
    await view.loadOwnerDocs();
    await view.loadRedirects(all);
    return view;
  }

  ownerHint(kind: Kind, source: string, externalId: string): string | undefined {
    return this.owners.get(`${kind}|${source}|${externalId}`);
  }

  /** The live doc already holds exactly these facts for the ref: observing them again would decide nothing. */
  alreadyObserved(id: string, key: string, facts: Facts): boolean {
    const current = this.facts.get(id)?.[key];
    return current !== undefined && stableJson(current) === stableJson(Facts.parse(facts));
  }

  /** Exact identifiers first (ISRC, UPC, metabase id), then the folded name key where no identifier conflicts. */
  findMatch(kind: Kind, facts: Facts & { name: string }): Match | undefined {
    for (const key of EXACT[kind]) {
      const value = facts[key];
      if (!value) continue;
      const hit = this.index.find(kind, key, value)[0];
      if (hit) return { id: hit.id, evidence: { rule: key, value } };
    }
    const folded = foldName(facts.name);
    if (kind !== 'artist' && !facts.artist_id) return undefined;
    const hit = this.index.find(kind, 'name_folded', folded).find((c) => (kind === 'artist' || c.artist_id === facts.artist_id) && !conflicts(c, facts));
    return hit ? { id: hit.id, evidence: { rule: 'name_key', value: folded } } : undefined;
  }

  registered(kind: Kind, id: string, at: string): void {
    this.facts.set(id, {});
    this.index.put({ id, kind, createdAt: Date.parse(at), isrc: null, upc: null, mbid: null, name_folded: null, artist_id: null });
  }

  /** A link or an observation changed the entity's facts: recompose its doc as the projector will. */
  async changed(kind: Kind, id: string, change: (facts: RefFacts) => RefFacts): Promise<void> {
    const current = this.facts.get(id) ?? (await this.loadFacts(id));
    if (!current) return;
    const next = change(current);
    const doc = composeFromFacts(next);
    this.facts.set(id, jsonbKeyOrder(next));
    const artistId = doc.artist_id ? await this.redirect(doc.artist_id) : null;
    const createdAt = this.index.get(id)?.createdAt ?? Date.now();
    this.index.put({ id, kind, createdAt, isrc: doc.isrc ?? null, upc: doc.upc ?? null, mbid: doc.mbid ?? null, name_folded: doc.name_folded, artist_id: artistId });
  }

  private async loadOwners(all: Observation[]): Promise<void> {
    const groups = new Map<string, { kind: Kind; source: string; ids: Set<string> }>();
    for (const o of all) {
      const g = groups.get(`${o.kind}|${o.source}`) ?? { kind: o.kind, source: o.source, ids: new Set() };
      g.ids.add(o.external_id);
      groups.set(`${o.kind}|${o.source}`, g);
    }
    for (const g of groups.values()) {
      const rows = await this.db
        .selectFrom('external_refs')
        .select(['external_id', 'entity_id'])
        .where('kind', '=', g.kind)
        .where('source', '=', g.source)
        .where('external_id', 'in', [...g.ids])
        .execute();
      for (const r of rows) this.owners.set(`${g.kind}|${g.source}|${r.external_id}`, r.entity_id);
    }
  }

  private async loadCandidates(all: Observation[]): Promise<void> {
    for (const kind of ['artist', 'album', 'track'] as const) {
      const of = all.filter((o) => o.kind === kind);
      if (of.length === 0) continue;
      const values = (key: 'isrc' | 'upc' | 'mbid') => [...new Set(of.map((o) => o.facts[key]).filter((v): v is string => Boolean(v)))];
      const names = [...new Set(of.map((o) => foldName(o.facts.name)))];
      const rows = await this.db
        .selectFrom('canonical_docs')
        .select(['id', 'created_at', 'isrc', 'upc', 'mbid', 'name_folded', 'artist_id', 'facts'])
        .where('kind', '=', kind)
        .where(sql<boolean>`not tombstoned`)
        .where((eb) => eb.or([
          eb('name_folded', 'in', names),
          ...EXACT[kind].filter((k) => values(k).length > 0).map((k) => eb(k, 'in', values(k))),
        ]))
        .execute();
      for (const { facts, created_at, ...r } of rows) {
        this.index.put({ ...r, kind, createdAt: created_at.getTime() });
        this.facts.set(r.id, facts as RefFacts);
      }
    }
  }

  /** The docs of the entities that own the batch's refs: the batch observes them. */
  private async loadOwnerDocs(): Promise<void> {
    const ids = [...new Set(this.owners.values())].filter((id) => !this.facts.has(id));
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.db
        .selectFrom('canonical_docs')
        .select(['id', 'kind', 'created_at', 'isrc', 'upc', 'mbid', 'name_folded', 'artist_id', 'facts'])
        .where('id', 'in', ids.slice(i, i + 1000))
        .where(sql<boolean>`not tombstoned`)
        .execute();
      for (const { facts, created_at, kind, ...r } of rows) {
        this.index.put({ ...r, kind: kind as Kind, createdAt: created_at.getTime() });
        this.facts.set(r.id, facts as RefFacts);
      }
    }
  }

  private async loadFacts(id: string): Promise<RefFacts | undefined> {
    const row = await this.db.selectFrom('canonical_docs').select(['kind', 'facts', 'created_at', 'tombstoned']).where('id', '=', id).executeTakeFirst();
    if (!row || row.tombstoned) return undefined;
    if (!this.index.has(id)) this.index.put({ id, kind: row.kind as Kind, createdAt: row.created_at.getTime(), isrc: null, upc: null, mbid: null, name_folded: null, artist_id: null });
    this.facts.set(id, row.facts as RefFacts);
    return row.facts as RefFacts;
  }

  /**
   * A caller that already knows an artist's id (an import remembers them across pages) observes
   * tracks without that artist: one query for all of them instead of one per artist and batch.
   */
  private async loadRedirects(all: Observation[]): Promise<void> {
    const ids = [...new Set(all.map((o) => o.facts.artist_id).filter((id): id is string => Boolean(id) && !this.index.has(id!)))];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const rows = await this.db.selectFrom('canonical_docs').select(['id', 'merged_into']).where('id', 'in', chunk).execute();
      const merged = new Map(rows.map((r) => [r.id, r.merged_into]));
      for (const id of chunk) this.redirects.set(id, merged.get(id) ?? id);
    }
  }

  /** The projector points a doc at the end of its artist's merge chain. */
  private async redirect(id: string): Promise<string> {
    if (this.index.has(id)) return id;
    const known = this.redirects.get(id);
    if (known) return known;
    const row = await this.db.selectFrom('canonical_docs').select('merged_into').where('id', '=', id).executeTakeFirst();
    const to = row?.merged_into ?? id;
    this.redirects.set(id, to);
    return to;
  }
}

/** Every observation of a batch with the artists and albums they carry, those first. */
export function flatten(observations: Observation[]): Observation[] {
  const out: Observation[] = [];
  const walk = (o: Observation) => {
    if (o.artist) walk(o.artist);
    if (o.album) walk(o.album);
    out.push(o);
  };
  observations.forEach(walk);
  return out;
}
