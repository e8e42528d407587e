import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { ConnectionTurns } from './connection-turns.ts';
import { isBackground } from './work-class.ts';
import type { Results } from '@electric-sql/pglite';
import type { EmbeddedDatabase } from './pglite-thread.ts';

/**
 * Kysely over PGlite. PGlite is one connection, so a connection is a lock: a transaction holds it
 * until commit, and a query outside waits its turn (requests before background work, see
 * ./connection-turns.ts). Never call the outer `db` inside a transaction.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: EmbeddedDatabase,
    readonly turns = new ConnectionTurns(),
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.turns);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  constructor(
    private readonly pglite: EmbeddedDatabase,
    private readonly turns: ConnectionTurns,
  ) {
    this.connection = new PGliteConnection(pglite);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.take(isBackground() ? 'background' : 'foreground');
    this.connection.release = () => this.turns.pass();
    return this.connection;
  }
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await (conn as PGliteConnection).begin(`begin${level}`);
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).end('commit');
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).end('rollback');
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    (conn as PGliteConnection).release();
  }
  async destroy(): Promise<void> {
    await this.turns.take('foreground');
    this.turns.pass();
    if (!this.pglite.closed) await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  /** A begin not sent yet: it travels with the transaction's first statement (one trip to the thread fewer). */
  private opening: string | undefined;
  constructor(private readonly pglite: EmbeddedDatabase) {}

  async begin(sql: string): Promise<void> {
    if (this.pglite.beginWith) this.opening = sql;
    else await this.pglite.query(sql);
  }

  /** Commit or rollback; a transaction that ran no statement never began. */
  async end(sql: 'commit' | 'rollback'): Promise<void> {
    const began = this.opening === undefined;
    this.opening = undefined;
    if (began) await this.pglite.query(sql);
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const opening = this.opening;
    this.opening = undefined;
    const parameters = compiled.parameters as unknown[];
    // Without parameters it goes as one simple query, which may hold more than one statement (a
    // prepared statement's EXECUTE after its SET LOCAL, ./prepared.ts): the last one answers.
    const result = opening
      ? await this.pglite.beginWith!<R>(opening, compiled.sql, parameters)
      : parameters.length === 0
        ? ((await this.pglite.exec(compiled.sql)).at(-1) as Results<R>)
        : await this.pglite.query<R>(compiled.sql, parameters);
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite');
  }
}
