import { KeptPerDatabase } from '../../shared/kept-per-database.ts';

/** Where a page begins in its sort's order: the sort keys of its first row. */
export interface PageStart {
  /** As the database printed it: a JS Date would drop the microseconds the order depends on. */
  created_at: string;
  id: string;
  name_folded: string | null;
  source_count: number;
}

/**
 * What a list variant (kind, sort, filter, genre, q, page size) answered at one revision of the
 * canonical docs (canonical_docs_revision, moved by every batch of their projector): the total, and
 * where the pages seen so far begin. While the revision stands the total is still exact and a page
 * can be read from its start key (keyset) instead of skipping every row before it.
 */
export interface ListMemo {
  at: string;
  total: number;
  starts: Map<number, PageStart>;
  /** The ids of the whole list in its sort's order, kept for lists whose plan is dear (a genre's): a page is then its ids' rows. */
  order?: string[];
}

const MAX_VARIANTS = 500;
const MAX_STARTS = 10_000;
/** Variants that keep their order, and their ids in all: 400,000 ids are about 20 MB. */
const MAX_ORDERS = 20;
const MAX_ORDER_IDS = 400_000;
// Free-text `q` makes the variants unbounded: the least recently answered go first.
const memos = new KeptPerDatabase<ListMemo>(MAX_VARIANTS);

export function recall(db: object, variant: string): ListMemo | undefined {
  return memos.get(db, variant);
}

export function remember(db: object, variant: string, memo: ListMemo): void {
  const byVariant = memos.set(db, variant, memo);
  if (memo.starts.size > MAX_STARTS) memo.starts.clear();
  if (memo.order) {
    // The least recently answered lose theirs first (the map's order is that of answering).
    const ordered = [...byVariant.values()].filter((m) => m.order);
    let kept = ordered.length;
    let ids = ordered.reduce((n, m) => n + m.order!.length, 0);
    for (const old of ordered) {
      if (kept <= MAX_ORDERS && ids <= MAX_ORDER_IDS) break;
      kept -= 1;
      ids -= old.order!.length;
      delete old.order;
    }
  }
}
