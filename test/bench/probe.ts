import { Worker } from 'node:worker_threads';

/**
 * A client on its own thread: a client that shared the service's event loop would time its own
 * waits too (the service's work, and PGlite's SQL where it runs on the main thread). The probe sends sequential keep-alive GETs
 * over loopback and records, per request, the wall-clock time it was sent and its latency.
 */
export interface Sample {
  /** Epoch milliseconds when the request was sent. */
  sentAt: number;
  ms: number;
  status: number;
}

// Plain JavaScript: a worker thread does not inherit tsx's loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const target = new URL(workerData.url);
let stopRequested = false;

function once() {
  return new Promise((resolve) => {
    const sentAt = Date.now();
    const t0 = process.hrtime.bigint();
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'GET', agent, headers: workerData.headers },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ sentAt, ms: Number(process.hrtime.bigint() - t0) / 1e6, status: res.statusCode }));
      },
    );
    req.on('error', () => resolve({ sentAt, ms: Number(process.hrtime.bigint() - t0) / 1e6, status: 0 }));
    req.end();
  });
}

parentPort.on('message', async (msg) => {
  if (msg.cmd === 'stop') { stopRequested = true; return; }
  if (msg.cmd === 'run') {
    stopRequested = false;
    const samples = [];
    while (!stopRequested && (msg.count === undefined || samples.length < msg.count)) {
      samples.push(await once());
      // Let a 'stop' message in between requests.
      if (samples.length % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    parentPort.postMessage({ samples });
  }
  if (msg.cmd === 'close') { agent.destroy(); parentPort.close(); }
});
`;

export class HttpProbe {
  private readonly worker: Worker;
  private pending: { resolve: (samples: Sample[]) => void; reject: (error: unknown) => void } | undefined;

  constructor(url: string, headers: Record<string, string>) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { url, headers } });
    this.worker.on('message', (msg: { samples: Sample[] }) => {
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve(msg.samples);
    });
    this.worker.on('error', (error) => {
      const pending = this.pending;
      this.pending = undefined;
      if (pending) pending.reject(error);
      else console.error('probe worker failed:', error);
    });
  }

  /** `count` sequential requests. */
  run(count: number): Promise<Sample[]> {
    return this.start({ cmd: 'run', count });
  }

  /** Sequential requests until `stop()`; resolves with every sample. */
  runUntilStopped(): { stop(): Promise<Sample[]> } {
    const result = this.start({ cmd: 'run' });
    return {
      stop: () => {
        this.worker.postMessage({ cmd: 'stop' });
        return result;
      },
    };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private start(msg: Record<string, unknown>): Promise<Sample[]> {
    if (this.pending) throw new Error('probe already running');
    const result = new Promise<Sample[]>((resolve, reject) => (this.pending = { resolve, reject }));
    this.worker.postMessage(msg);
    return result;
  }
}
