import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

/** A statement's name: a hash of its text (one text, one name, in every session). */
export const nameOf = (text: string) => `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

/**
 * Prepared statements on PostgreSQL run on a pool of their own, whose sessions keep one generic
 * plan per statement (`plan_cache_mode = force_generic_plan`). PostgreSQL's own choice kept planning
 * them again on every execution: the generic plan of a page (its kind a parameter) is estimated a
 * little above the custom one, so it was never taken, and planning a page of canonical_docs (25
 * indexes to weigh) cost 0.2-0.3 ms of its 0.5. The setting is the session's, so the statements
 * that should be planned with their values (everything else) stay on the main pool.
 */
const preparedHandles = new WeakMap<object, Kysely<any>>();

/** `prepared` runs the statements that `db` runs prepared (infra/db/prepared.ts). */
export function runPreparedOn(db: Kysely<any>, prepared: Kysely<any>): void {
  preparedHandles.set(db, prepared);
}

export function preparedHandleOf(db: Kysely<any>): Kysely<any> | undefined {
  return preparedHandles.get(db);
}

interface Queryable {
  query(...args: unknown[]): unknown;
}
const NAMING = Symbol('naming');

/**
 * The pool's connections send every statement under a name (a hash of its text): the driver parses
 * a named statement once per connection and binds the values after, and the session keeps its plan.
 */
export function namingPool<C extends Queryable>(pool: { connect(): Promise<C>; end(): Promise<void> }): { connect(): Promise<C>; end(): Promise<void> } {
  return {
    async connect() {
      const client = (await pool.connect()) as C & { [NAMING]?: true };
      if (!client[NAMING]) {
        const query = client.query.bind(client);
        client.query = (...args: unknown[]) => {
          const [text, values] = args;
          if (typeof text === 'string') return query({ name: nameOf(text), text, values });
          return query(...args);
        };
        client[NAMING] = true;
      }
      return client;
    },
    end: () => pool.end(),
  };
}
