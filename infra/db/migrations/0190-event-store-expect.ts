import { type Kysely, sql } from 'kysely';

/**
 * The expected-revision check of an append, inside the append's one statement
 * (infra/eventstore/postgres/postgres-event-store.ts): true when `current` (the stream's revision
 * before the append; -1 when it did not exist) is what `expected` asks for, else an error with
 * SQLSTATE ML409 whose detail names the stream and its revision, so the statement and everything it
 * wrote roll back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function event_store_expect(stream text, expected text, current integer) returns boolean
    language plpgsql as $$
    begin
      if expected = 'any' or (expected = 'no_stream' and current < 0) or (expected = 'stream_exists' and current >= 0) or expected = current::text then
        return true;
      end if;
      raise exception 'wrong expected version of %', stream
        using errcode = 'ML409', detail = json_build_object('stream', stream, 'expected', expected, 'current', current)::text;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists event_store_expect(text, text, integer)`.execute(db);
}
