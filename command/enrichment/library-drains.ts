/**
 * Caps of the drains that need no network (audio quality, tags, artist reproject): each item is a
 * read and at most one append, so a batch may be large and a drain may walk a whole library.
 */
export const LIBRARY_BATCH_CAP = 5000;
/** The most a `drain=true` run of a no-network drain works; the next run continues after it. */
export const LIBRARY_DRAIN_CAP = 250_000;
