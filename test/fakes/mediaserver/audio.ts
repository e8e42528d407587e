import type { Request, Response } from 'express';

/** Content types the server answers parts with, by container. */
const TYPES: Record<string, string> = { flac: 'audio/flac', mp3: 'audio/mpeg', m4a: 'audio/mp4', mp4: 'audio/mp4', aac: 'audio/aac', ogg: 'audio/ogg', wav: 'audio/wav' };
/** Parts larger than this are served at this size: tests read bytes, not gigabytes. */
const MAX_BYTES = 4 * 1024 * 1024;

export const audioTypeOf = (container: string) => TYPES[container.toLowerCase()] ?? 'application/octet-stream';

/**
 * A part's bytes: a real WAV header (16-bit stereo PCM at 44.1 kHz) over a sample pattern derived
 * from the part id, so every part has distinct, reproducible content a test can compare exactly.
 */
export function partBytes(partId: number, size: number): Buffer {
  const length = Math.max(44, Math.min(size, MAX_BYTES));
  const buf = Buffer.alloc(length);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(length - 8, 4);
  buf.write('WAVEfmt ', 8, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(2, 22);
  buf.writeUInt32LE(44100, 24);
  buf.writeUInt32LE(44100 * 4, 28);
  buf.writeUInt16LE(4, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(length - 44, 40);
  for (let i = 44; i < length; i++) buf[i] = (i * 31 + partId * 7) & 0xff;
  return buf;
}

/** An MP3-shaped stream: an ID3 tag, then MPEG-1 layer III frame headers (128 kb/s, 44.1 kHz) with silent frames. */
export function mp3Bytes(frames: number): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([id3, ...Array.from({ length: frames }, () => frame)]);
}

/**
 * Answers a byte range as the server does: `Accept-Ranges`, 206 with `Content-Range` for a
 * satisfiable `bytes=` range, 416 for one past the end, the whole body otherwise.
 */
export function sendRanged(req: Request, res: Response, body: Buffer, type: string): void {
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', type);
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? '').trim());
  if (!range || (range[1] === '' && range[2] === '')) {
    res.setHeader('Content-Length', String(body.length));
    return void res.status(200).end(body);
  }
  let start: number;
  let end: number;
  if (range[1] === '') {
    start = Math.max(0, body.length - Number(range[2]));
    end = body.length - 1;
  } else {
    start = Number(range[1]);
    end = range[2] === '' ? body.length - 1 : Math.min(Number(range[2]), body.length - 1);
  }
  if (start >= body.length || start > end) {
    res.setHeader('Content-Range', `bytes */${body.length}`);
    return void res.status(416).end();
  }
  res.setHeader('Content-Range', `bytes ${start}-${end}/${body.length}`);
  res.setHeader('Content-Length', String(end - start + 1));
  res.status(206).end(body.subarray(start, end + 1));
}

/** A tiny valid JPEG-shaped image (SOI, a comment naming what it shows, EOI). */
export function imageBytes(label: string): Buffer {
  const comment = Buffer.from(label, 'utf8');
  const header = Buffer.from([0xff, 0xd8, 0xff, 0xfe, ((comment.length + 2) >> 8) & 0xff, (comment.length + 2) & 0xff]);
  return Buffer.concat([header, comment, Buffer.from([0xff, 0xd9])]);
}
