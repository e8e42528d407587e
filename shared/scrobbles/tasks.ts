/** The task that mirrors a user's whole scrobbler history; the read side lists its runs per user. */
export const BULK_IMPORT_TASK = 'scrobbler.bulk_import';
