/** A command as its caller writes it: the handler adds `meta` (time, ids) before deciding. */
export type WithoutMeta<C> = C extends { meta: unknown } ? Omit<C, 'meta'> : never;
