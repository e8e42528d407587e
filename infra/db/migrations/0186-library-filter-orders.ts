import { type Kysely, sql } from 'kysely';

/**
 * Every library filter in the order of every sort (0006 and 0110 cover all of them unfiltered and
 * `playable`). A filter that keeps few rows of a kind (the artists held by more than one source,
 * the few tracks the mediaserver lacks) otherwise walks the sort's whole index to fill a page. The
 * predicates are written as query/library/library.queries.ts states them, literals included, so a
 * prepared page can use them. `multi_source` and `single_source` by source count are ranges of
 * 0006's source-count index.
 */
const FILTERS = {
  not_playable: `(sources->>'mediaserver') is distinct from 'true'`,
  multi_source: 'source_count >= 2',
  single_source: 'source_count = 1',
};

const ORDERS = {
  recent: 'kind, created_at desc, id desc',
  name: 'kind, name_folded, id',
  sources: 'kind, source_count desc, name_folded, id',
};

const INDEXES: [keyof typeof FILTERS, keyof typeof ORDERS][] = [
  ['not_playable', 'recent'],
  ['not_playable', 'name'],
  ['not_playable', 'sources'],
  ['multi_source', 'recent'],
  ['multi_source', 'name'],
  ['single_source', 'recent'],
  ['single_source', 'name'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [filter, order] of INDEXES) {
    await sql.raw(`create index canonical_docs_${filter}_${order} on canonical_docs (${ORDERS[order]}) where not tombstoned and ${FILTERS[filter]}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [filter, order] of INDEXES) await sql.raw(`drop index if exists canonical_docs_${filter}_${order}`).execute(db);
}
