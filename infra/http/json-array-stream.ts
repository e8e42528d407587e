import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { log } from '../logger.ts';

/**
 * Answers 200 with a JSON array written chunk by chunk as `chunks` yields them, with backpressure:
 * at most about one chunk is held while the client reads. The first chunk is read before anything
 * is sent, so a failing query still answers with a clean error; a failure after that cuts the
 * connection (the client sees a truncated body, never a complete-looking array). A client that
 * goes away stops the reading.
 */
export async function sendJsonArray(res: Response, chunks: AsyncIterable<readonly unknown[]>): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* text() {
    yield '[';
    let separator = '';
    for (let next = first; !next.done; next = await iterator.next()) {
      if (next.value.length === 0) continue;
      yield separator + next.value.map((row) => JSON.stringify(row)).join(',');
      separator = ',';
    }
    yield ']';
  }
  res.status(200).type('application/json');
  try {
    await pipeline(Readable.from(text(), { objectMode: true, highWaterMark: 1 }), res);
  } catch (error) {
    // A client that leaves is not a failure; anything else is, and pipeline has cut the connection.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') log.warn('http: streamed list broke off', { path: res.req.path, error: (error as Error).message });
  } finally {
    await iterator.return?.();
  }
}
