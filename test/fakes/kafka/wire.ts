/**
 * The Kafka protocol's primitive types (big-endian integers, int16-length strings, int32-length
 * bytes and arrays, zigzag varints), written from the protocol guide rather than any client's code,
 * so the double checks the client instead of agreeing with it by construction.
 */
export class Reader {
  private at = 0;
  constructor(private readonly buffer: Buffer) {}

  get remaining(): number {
    return this.buffer.length - this.at;
  }

  int8 = () => this.take(1).readInt8(0);
  int16 = () => this.take(2).readInt16BE(0);
  int32 = () => this.take(4).readInt32BE(0);
  uint32 = () => this.take(4).readUInt32BE(0);
  int64 = () => Number(this.take(8).readBigInt64BE(0));
  boolean = () => this.int8() !== 0;

  nullableString(): string | null {
    const length = this.int16();
    return length < 0 ? null : this.take(length).toString('utf8');
  }

  string(): string {
    const value = this.nullableString();
    if (value === null) throw new ProtocolError('null where a string is required');
    return value;
  }

  nullableBytes(): Buffer | null {
    const length = this.int32();
    return length < 0 ? null : this.take(length);
  }

  bytes(): Buffer {
    return this.nullableBytes() ?? Buffer.alloc(0);
  }

  nullableArray<T>(item: (r: Reader) => T): T[] | null {
    const length = this.int32();
    if (length < 0) return null;
    return Array.from({ length }, () => item(this));
  }

  array<T>(item: (r: Reader) => T): T[] {
    return this.nullableArray(item) ?? [];
  }

  /** Zigzag varint (record fields); safe up to 2^53, which covers every offset and timestamp delta. */
  varint(): number {
    let raw = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift > 63n) throw new ProtocolError('varint longer than 10 bytes');
      const byte = this.take(1)[0]!;
      raw |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) break;
    }
    return Number((raw >> 1n) ^ -(raw & 1n));
  }

  /** A varint-length byte run of a record: -1 is null. */
  varBytes(): Buffer | null {
    const length = this.varint();
    return length < 0 ? null : this.take(length);
  }

  take(length: number): Buffer {
    if (length < 0 || this.at + length > this.buffer.length) throw new ProtocolError(`read of ${length} bytes past the end`);
    const slice = this.buffer.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }

  rest(): Buffer {
    return this.take(this.remaining);
  }
}

export class Writer {
  private readonly chunks: Buffer[] = [];

  int8 = (v: number) => this.fixed(1, (b) => b.writeInt8(v));
  int16 = (v: number) => this.fixed(2, (b) => b.writeInt16BE(v));
  int32 = (v: number) => this.fixed(4, (b) => b.writeInt32BE(v));
  int64 = (v: number) => this.fixed(8, (b) => b.writeBigInt64BE(BigInt(v)));
  boolean = (v: boolean) => this.int8(v ? 1 : 0);

  nullableString(v: string | null): this {
    if (v === null) return this.int16(-1);
    const encoded = Buffer.from(v, 'utf8');
    return this.int16(encoded.length).raw(encoded);
  }

  string = (v: string) => this.nullableString(v);

  nullableBytes(v: Buffer | null): this {
    if (v === null) return this.int32(-1);
    return this.int32(v.length).raw(v);
  }

  array<T>(items: readonly T[], item: (w: Writer, value: T) => void): this {
    this.int32(items.length);
    for (const value of items) item(this, value);
    return this;
  }

  raw(v: Buffer): this {
    this.chunks.push(v);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private fixed(size: number, write: (b: Buffer) => void): this {
    const b = Buffer.alloc(size);
    write(b);
    return this.raw(b);
  }
}

/** A request the double cannot parse: the connection is closed, as a broker does. */
export class ProtocolError extends Error {}
