import type { AppContext } from '../../infra/context.ts';
import { type Position, type RecordedEvent, comparePositions, encodePosition } from '../../infra/eventstore/event-store.ts';
import { type LogPoint, atOrBefore } from '../../infra/eventstore/log-point.ts';
import { DOC_JSON_COLUMNS, docColumns } from '../../projectors/canonical/canonical-docs.columns.ts';
import { type CanonicalDoc, type DocRow, toDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import type { ComposedDoc } from '../../shared/canonical/compose-doc.ts';
import { type RefFacts, composeFromFacts, factsKey, foldFacts, jsonbKeyOrder, withAbsorbed, withGivenBack, withUnabsorbed } from '../../shared/canonical/doc-facts.ts';
import type { EntityEvent, Kind } from '../../shared/events/canonical.events.ts';
import type { EntityEnrichmentEvent } from '../../shared/events/enrichment.events.ts';
import { assertNever } from '../../shared/never.ts';
import { entityStream } from '../../shared/streams.ts';

const before = (e: RecordedEvent) => (x: RecordedEvent) => comparePositions(x.position, e.position) < 0;

type Ref = { source: string; external_id: string };
interface Folded {
  status: 'none' | 'active' | 'merged';
  mergedInto: string | null;
  /** As the read model's jsonb column holds them, and the doc composed at the last change. */
  facts: RefFacts;
  composed: ComposedDoc;
  refs: Map<string, Ref>;
  createdAt: string | null;
  updatedAt: string | null;
  /** The newest event folded, of this stream and of those it read. */
  last: Position | null;
}

const later = (a: Position | null, b: Position | null) => (a === null ? b : b === null ? a : comparePositions(a, b) >= 0 ? a : b);

/**
 * Folds an entity's stream up to a point with the projector's own fact functions: merges read the
 * other entity's facts as they stood just before, so chains are followed as they were then.
 */
export async function foldAsOf(ctx: AppContext, kind: Kind, id: string, include: (e: RecordedEvent) => boolean): Promise<Folded> {
  const events = (await ctx.store.readStream(entityStream(kind, id))).filter(include);
  let doc: Folded = { status: 'none', mergedInto: null, facts: {}, composed: composeFromFacts({}), refs: new Map(), createdAt: null, updatedAt: null, last: null };
  const change = (facts: RefFacts, at: string): Folded => ({ ...doc, facts: jsonbKeyOrder(facts), composed: composeFromFacts(facts), updatedAt: at });
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as EntityEvent | EntityEnrichmentEvent;
    doc = { ...doc, last: later(doc.last, recorded.position) };
    if (event.type === 'EnrichmentFailed' || event.type === 'EnrichmentRecovered') continue;
    const at = event.data.at;
    const keys = 'refs' in event.data ? event.data.refs.map((r) => factsKey(r.source, r.external_id)) : [];
    switch (event.type) {
      case 'EntityRegistered':
        doc = { ...doc, ...change({}, at), status: 'active', createdAt: at };
        break;
      case 'RefLinked':
      case 'RefUnlinked':
      case 'FactsObserved':
      case 'EntityEnriched': {
        if (doc.status !== 'active') break;
        doc = change(foldFacts(doc.facts, event), at);
        if (event.type === 'RefLinked') doc.refs = new Map(doc.refs).set(factsKey(event.data.source, event.data.external_id), { source: event.data.source, external_id: event.data.external_id });
        if (event.type === 'RefUnlinked') doc.refs = new Map([...doc.refs].filter(([k]) => k !== factsKey(event.data.source, event.data.external_id)));
        break;
      }
      case 'EntityAbsorbed': {
        const source = await foldAsOf(ctx, kind, event.data.source_id, before(recorded));
        doc = { ...change(withAbsorbed(doc.facts, source.facts, keys), at), last: later(doc.last, source.last) };
        doc.refs = new Map([...doc.refs, ...event.data.refs.map((r) => [factsKey(r.source, r.external_id), r] as const)]);
        break;
      }
      case 'EntityUnabsorbed':
        doc = change(withUnabsorbed(doc.facts, keys, event.data.enriched), at);
        doc.refs = new Map([...doc.refs].filter(([k]) => !keys.includes(k)));
        break;
      case 'EntityMergedInto':
        doc = { ...doc, status: 'merged', mergedInto: event.data.target_id, refs: new Map(), updatedAt: at };
        break;
      case 'EntityUnmerged': {
        const target = await foldAsOf(ctx, kind, event.data.target_id, before(recorded));
        const facts = jsonbKeyOrder(withGivenBack(doc.facts, target.facts, keys));
        doc = { ...change(facts, at), status: 'active', mergedInto: null, last: later(doc.last, target.last) };
        doc.refs = new Map(event.data.refs.map((r) => [factsKey(r.source, r.external_id), { source: r.source, external_id: r.external_id }]));
        break;
      }
      default:
        assertNever(event);
    }
  }
  return doc;
}

/** Where an id's merge chain ended at that point, and the entity there; null when the id did not exist yet. */
async function chainEndAsOf(ctx: AppContext, kind: Kind, id: string, include: (e: RecordedEvent) => boolean): Promise<{ id: string; doc: Folded } | null> {
  const seen = new Set<string>();
  let current = id;
  for (;;) {
    const doc = await foldAsOf(ctx, kind, current, include);
    if (doc.status === 'none') return null;
    if (doc.status !== 'merged' || seen.has(current)) return { id: current, doc };
    seen.add(current);
    current = doc.mergedInto!;
  }
}

/** The doc an id stood for at a point of the log, and the newest position it reflects; undefined if it did not exist then. */
export async function docAsOf(ctx: AppContext, kind: Kind, id: string, point: LogPoint): Promise<{ doc: CanonicalDoc; position: string | null } | undefined> {
  const include = atOrBefore(point);
  const end = await chainEndAsOf(ctx, kind, id, include);
  if (!end) return undefined;
  const { doc } = end;
  const columns = docColumns(doc.composed, doc.facts) as Record<string, unknown>;
  const parsed = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, DOC_JSON_COLUMNS.has(k) && typeof v === 'string' ? JSON.parse(v) : v]));
  const pointsAt = async (of: Kind, raw: string | undefined) => (raw ? ((await chainEndAsOf(ctx, of, raw, include))?.id ?? raw) : null);
  const row = {
    ...parsed,
    id: end.id,
    kind,
    artist_id: await pointsAt('artist', doc.composed.artist_id),
    album_id: await pointsAt('album', doc.composed.album_id),
    merged_into: null,
    tombstoned: false,
    created_at: new Date(doc.createdAt!),
    updated_at: new Date(doc.updatedAt!),
  } as unknown as DocRow;
  const refs = [...doc.refs.values()].sort((a, b) => (a.source === b.source ? cmp(a.external_id, b.external_id) : cmp(a.source, b.source)));
  const position = 'position' in point ? point.position : doc.last;
  return { doc: toDoc(row, refs), position: position && encodePosition(position) };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
