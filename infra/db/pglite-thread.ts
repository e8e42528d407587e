import { Worker } from 'node:worker_threads';
import type { PGlite, Results } from '@electric-sql/pglite';

/** What the service and its tests use of PGlite: the same calls whether it runs on this thread or its own. */
export type EmbeddedDatabase = Pick<PGlite, 'query' | 'exec' | 'close' | 'closed' | 'dumpDataDir'> & {
  /**
   * `begin` then a transaction's first statement, in one trip to the thread; the statement does
   * not run when `begin` fails. Only where a trip costs something (PGlite on its own thread).
   */
  beginWith?<R>(begin: string, sql: string, params?: unknown[]): Promise<Results<R>>;
};

/** Where the embedded database lives (a directory, a dump, or memory) and PostgreSQL's start settings. */
export interface EmbeddedOptions {
  dataDir?: string | undefined;
  loadDataDir?: Blob | undefined;
  /** PostgreSQL settings beyond PGlite's defaults (`-c name=value` pairs). */
  settings?: string[];
  /**
   * A database directory copied into dataDir before it opens (a first start's template), by the
   * thread that opens it: on the service's own thread the copy runs beside the main thread's work.
   */
  seed?: string | undefined;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

type Answer = { ready: true } | { id: number; result: unknown } | { id: number; error: Record<string, unknown> & { message: string } };

/**
 * PGlite on a worker thread of its own (./pglite-worker.mjs). PGlite runs SQL synchronously on
 * whatever thread holds it: on the main thread a long statement of background work (a projection
 * batch, an import's append) would also stop the event loop, so a request could not even be read
 * until it ended. Here the main thread only passes messages. The worker keeps the process alive
 * only while a call is under way, as an in-thread instance would.
 *
 * `create` does not wait for the database to open: calls made meanwhile wait in the thread's queue
 * and run as soon as it is open, so a start builds the service while the database opens and its
 * first query runs with no round trip in between; if the database cannot open, they fail with why.
 */
export class PGliteThread implements EmbeddedDatabase {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private state: 'open' | 'closing' | 'closed' = 'open';
  /** Whether the thread has opened the database: until then it keeps the process alive. */
  private opened = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (answer: Answer) => this.settle(answer));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', () => this.fail(new Error('PGlite is closed')));
  }

  static create(source: EmbeddedOptions): Promise<PGliteThread> {
    return PGliteThread.start().open(source);
  }

  /**
   * Starts the thread with no database yet: it boots (a Node environment, PGlite's module) until
   * `open` says which, so a caller that does not know it yet (infra/main.ts, before the settings
   * are read) overlaps that boot with its own work.
   */
  static start(): PGliteThread {
    // The worker is plain JavaScript: tsx's loader (inherited by default) has nothing to do there.
    return new PGliteThread(new Worker(new URL('./pglite-worker.mjs', import.meta.url), { execArgv: [] }));
  }

  /** Opens the database on this thread; calls from now on wait in its queue until it is open. */
  async open(source: EmbeddedOptions): Promise<this> {
    const loadDataDir = source.loadDataDir ? await source.loadDataDir.arrayBuffer() : undefined;
    const message = { op: 'open', dataDir: source.dataDir, loadDataDir, settings: source.settings ?? [], seed: source.seed };
    this.worker.postMessage(message, loadDataDir ? [loadDataDir] : []);
    return this;
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  query: EmbeddedDatabase['query'] = (sql, params) => this.call({ op: 'query', sql, params }) as never;

  exec: EmbeddedDatabase['exec'] = (sql) => this.call({ op: 'exec', sql }) as never;

  beginWith<R>(begin: string, sql: string, params?: unknown[]): Promise<Results<R>> {
    return this.call({ op: 'query', begin, sql, params }) as never;
  }

  async dumpDataDir(compression?: Parameters<PGlite['dumpDataDir']>[0]): Promise<Blob> {
    return new Blob([(await this.call({ op: 'dump', compression })) as ArrayBuffer]);
  }

  async close(): Promise<void> {
    if (this.state !== 'open') return;
    const closing = this.call({ op: 'close' });
    this.state = 'closing';
    try {
      await closing;
    } finally {
      this.state = 'closed';
      await this.worker.terminate();
    }
  }

  private call(message: Record<string, unknown>): Promise<unknown> {
    if (this.state !== 'open') return Promise.reject(new Error(this.state === 'closed' ? 'PGlite is closed' : 'PGlite is closing'));
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private settle(answer: Answer): void {
    if (!('id' in answer)) {
      this.opened = true;
      if (this.pending.size === 0) this.worker.unref();
      return;
    }
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0 && this.opened) this.worker.unref();
    if ('error' in answer) pending.reject(Object.assign(new Error(answer.error.message), answer.error));
    else pending.resolve(answer.result);
  }

  /** The thread is gone (closed, or crashed): every call under way fails as on a closed instance. */
  private fail(error: Error): void {
    this.state = 'closed';
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
