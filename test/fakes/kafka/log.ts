import { type StoredBatch, type StoredRecord, acceptBatches } from './records.ts';

export class Partition {
  readonly batches: StoredBatch[] = [];

  get logEndOffset(): number {
    const last = this.batches.at(-1);
    return last ? last.lastOffset + 1 : 0;
  }

  append(recordSet: Buffer): number {
    const base = this.logEndOffset;
    this.batches.push(...acceptBatches(recordSet, base));
    return base;
  }

  /**
   * Whole batches from the one holding `offset` on, up to `maxBytes` but at least one batch: a real
   * broker does the same, and the client skips the records before the offset it asked for.
   */
  read(offset: number, maxBytes: number): Buffer {
    const out: Buffer[] = [];
    let size = 0;
    for (const batch of this.batches) {
      if (batch.lastOffset < offset) continue;
      if (out.length > 0 && size + batch.bytes.length > maxBytes) break;
      out.push(batch.bytes);
      size += batch.bytes.length;
    }
    return Buffer.concat(out);
  }

  /** The first offset whose record is at or after `timestamp`, else the log end (ListOffsets). */
  offsetForTime(timestamp: number): number {
    for (const batch of this.batches) for (const record of batch.records) if (record.timestamp >= timestamp) return record.offset;
    return this.logEndOffset;
  }
}

/** The broker's topics, in memory, and the fetches waiting for a produce. */
export class Log {
  readonly topics = new Map<string, Partition[]>();
  private readonly waiting = new Set<() => void>();

  create(name: string, partitions: number): void {
    this.topics.set(name, Array.from({ length: partitions }, () => new Partition()));
  }

  partition(topic: string, index: number): Partition | undefined {
    return this.topics.get(topic)?.[index];
  }

  append(topic: string, index: number, recordSet: Buffer): number {
    const base = this.partition(topic, index)!.append(recordSet);
    for (const wake of [...this.waiting]) wake();
    return base;
  }

  /** Resolves at the next produce or after `ms`, whichever is first (a fetch's max wait). */
  nextAppend(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }

  /** Ends every waiting fetch (the broker is closing). */
  wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }

  records(topic: string): StoredRecord[] {
    return (this.topics.get(topic) ?? []).flatMap((p) => p.batches.flatMap((b) => b.records));
  }
}
