import { type RawBuilder, type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { StoredEvent } from '../../infra/projections/projector.ts';
import type { ComposedDoc } from '../../shared/canonical/compose-doc.ts';
import { type RefFacts, composeFromFacts, foldFacts, jsonbKeyOrder } from '../../shared/canonical/doc-facts.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import type { EntityEnrichmentEvent } from '../../shared/events/enrichment.events.ts';
import { DOC_COLUMNS, INT_DOC_COLUMNS, JSON_DOC_COLUMNS, chainEnd, docValues } from './canonical-docs.columns.ts';
import { listJson } from './canonical-docs.json.ts';

/** Events that change one doc only: a run of them is applied in memory and written in a few statements. */
export type RunEvent = StoredEvent &
  (Extract<EntityEvent, { type: 'EntityRegistered' | 'RefLinked' | 'RefUnlinked' | 'FactsObserved' }> | Extract<EntityEnrichmentEvent, { type: 'EntityEnriched' }>);

interface Doc {
  id: string;
  kind: string;
  tombstoned: boolean;
  createdAt: Date;
  /** The facts as the next read of the jsonb column would return them. */
  facts: RefFacts;
  /** Set once the run changed it: the doc composed at its last change, with that change's facts and time. */
  change?: { doc: ComposedDoc; facts: RefFacts; at: string };
}

const CHUNK = 500;

/**
 * Applies a run of single-doc events with the same rules as one event at a time (recompose on the
 * facts as the jsonb column returns them), reading the touched rows in one query and writing each
 * changed row once, with its list JSON.
 */
export async function applyRun(trx: Transaction<Database>, events: RunEvent[]): Promise<void> {
  const docs = await load(trx, [...new Set(events.map((e) => e.data.id))]);
  for (const event of events) {
    const { id, kind, at } = event.data;
    if (event.type === 'EntityRegistered') {
      if (!docs.has(id)) docs.set(id, { id, kind, tombstoned: false, createdAt: new Date(at), facts: {}, change: { doc: composeFromFacts({}), facts: {}, at } });
      continue;
    }
    const doc = docs.get(id);
    if (!doc || doc.tombstoned) continue;
    const facts = foldFacts(doc.facts, event);
    doc.change = { doc: composeFromFacts(facts), facts, at };
    doc.facts = jsonbKeyOrder(facts);
  }
  const changed = [...docs.values()].filter((d) => d.change);
  for (let i = 0; i < changed.length; i += CHUNK) await write(trx, changed.slice(i, i + CHUNK));
}

async function load(trx: Transaction<Database>, ids: string[]): Promise<Map<string, Doc>> {
  const docs = new Map<string, Doc>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await trx.selectFrom('canonical_docs').select(['id', 'kind', 'tombstoned', 'created_at', 'facts']).where('id', 'in', ids.slice(i, i + CHUNK)).execute();
    for (const r of rows) docs.set(r.id, { id: r.id, kind: r.kind, tombstoned: r.tombstoned, createdAt: r.created_at, facts: r.facts as RefFacts });
  }
  return docs;
}

/** The columns a run writes, in the order the rows are read back from their JSON (RECORD) and inserted (COLUMNS). */
const COLUMNS = ['id', 'kind', 'created_at', 'updated_at', ...DOC_COLUMNS];
const typeOf = (c: string) => (INT_DOC_COLUMNS.has(c) ? 'integer' : c === 'created_at' || c === 'updated_at' ? 'timestamptz' : 'text');
const RECORD = sql.raw(COLUMNS.map((c) => `${c} ${typeOf(c)}`).join(', '));
/** Each column as written: jsonb from its text, the artist and album at the end of their chains. */
const valueOf = (c: string): RawBuilder<unknown> =>
  c === 'artist_id' || c === 'album_id' ? chainEnd(sql.ref(`v.${c}`)) : JSON_DOC_COLUMNS.has(c) ? sql`${sql.ref(`v.${c}`)}::jsonb` : sql.ref(`v.${c}`);
const WRITTEN = sql.join(COLUMNS.map((c) => sql`${valueOf(c)} as ${sql.ref(c)}`));

/**
 * One upsert of the changed rows, their list JSON rendered from the values written (a second
 * statement rendering it afterwards wrote every row twice). The rows travel as one JSON value,
 * read back as a record of typed columns; a live row is never merged away or tombstoned.
 */
async function write(trx: Transaction<Database>, docs: Doc[]): Promise<void> {
  const rows = docs.map((d) => ({ id: d.id, kind: d.kind, created_at: d.createdAt.toISOString(), updated_at: new Date(d.change!.at).toISOString(), ...docValues(d.change!.doc, d.change!.facts) }));
  await sql`
    insert into canonical_docs (${sql.join([...COLUMNS, 'merged_into', 'tombstoned', 'list_json'].map((c) => sql.ref(c)))})
    select *, ${listJson} from (
      select ${WRITTEN}, null::text as merged_into, false as tombstoned from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(${RECORD})
    ) as w
    on conflict (id) do update set ${sql.join([...DOC_COLUMNS, 'updated_at', 'list_json'].map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}`.execute(trx);
}
