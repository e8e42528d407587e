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
import { isBackground } from './work-class.ts';
import type { EmbeddedDatabase } from './pglite-thread.ts';

/**
 * Kysely over PGlite. PGlite is one connection, so a connection is a lock: a transaction holds it
 * until commit, and a query outside waits its turn (requests before background work, see
 * ./work-class.ts). Never call the outer `db` inside a transaction.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: EmbeddedDatabase) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
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
  private readonly turns = new ConnectionTurns();
  constructor(private readonly pglite: EmbeddedDatabase) {
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
    await conn.executeQuery({ sql: `begin${level}`, parameters: [] } as unknown as CompiledQuery);
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'commit', parameters: [] } as unknown as CompiledQuery);
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'rollback', parameters: [] } as unknown as CompiledQuery);
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    (conn as PGliteConnection).release();
  }
  async destroy(): Promise<void> {
    await this.turns.take('background');
    this.turns.pass();
    if (!this.pglite.closed) await this.pglite.close();
  }
}

/**
 * Who holds the one connection next: the first waiting foreground caller (a request), else the
 * first waiting background one. Background work cannot starve: a request holds the connection for
 * a few queries, and between one client's requests the background queue moves.
 */
class ConnectionTurns {
  private held = false;
  private readonly waiting = { foreground: [] as (() => void)[], background: [] as (() => void)[] };

  take(kind: 'foreground' | 'background'): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting[kind].push(resolve));
  }

  pass(): void {
    const next = this.waiting.foreground.shift() ?? this.waiting.background.shift();
    if (next) next();
    else this.held = false;
  }
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  constructor(private readonly pglite: EmbeddedDatabase) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[]);
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
