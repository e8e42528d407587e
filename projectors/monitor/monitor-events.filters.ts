/** The filters of the monitor views, as the interface names them, and the column each reads. */
export const FILTER_COLUMNS = [
  { field: 'event', column: 'event' },
  { field: 'category', column: 'category' },
  { field: 'media_type', column: 'media_type' },
  { field: 'user', column: 'user_name' },
] as const;

export type FilterField = (typeof FILTER_COLUMNS)[number]['field'];
