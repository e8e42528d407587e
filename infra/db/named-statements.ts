import { createHash } from 'node:crypto';

/** A statement's name: a hash of its text (one text, one name, in every session). */
export const nameOf = (text: string) => `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

/** The texts to send as named statements (executePrepared's on PostgreSQL). */
const namedTexts = new Set<string>();

/** From now on `text` goes as a named statement, unless `most` texts already do. */
export function sendNamed(text: string, most: number): void {
  if (namedTexts.size < most) namedTexts.add(text);
}

interface Queryable {
  query(...args: unknown[]): unknown;
}
const PREPARING = Symbol('preparing');

/**
 * The pool's connections send the statements `executePrepared` ran under a name (a hash of the
 * text): the driver parses a named statement once per connection and binds the values after.
 * Everything else goes as before (kysely sends text and values, which the server parses each time).
 */
export function preparingPool<C extends Queryable>(pool: { connect(): Promise<C>; end(): Promise<void> }): { connect(): Promise<C>; end(): Promise<void> } {
  return {
    async connect() {
      const client = (await pool.connect()) as C & { [PREPARING]?: true };
      if (!client[PREPARING]) {
        const query = client.query.bind(client);
        client.query = (...args: unknown[]) => {
          const [text, values] = args;
          if (typeof text === 'string' && namedTexts.has(text)) return query({ name: nameOf(text), text, values });
          return query(...args);
        };
        client[PREPARING] = true;
      }
      return client;
    },
    end: () => pool.end(),
  };
}
