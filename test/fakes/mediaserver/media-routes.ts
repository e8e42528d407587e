import type { Express, Request, Response } from 'express';
import { audioTypeOf, imageBytes, mp3Bytes, partBytes, sendRanged } from './audio.ts';
import type { FakeLibrary, Json } from './library.ts';
import type { FakePlaylists } from './playlists.ts';
import { sendContainer } from './render.ts';

export interface MediaState {
  library: FakeLibrary;
  playlists: FakePlaylists;
  machineIdentifier: () => string;
  /** Answer timeline reports with this status (a failing server). */
  timelineStatus: number;
  /** Whole-file part reads streamed slowly (see `slowParts`), and whether each reached its end. */
  partReads: { partId: number; finished: boolean; closed: boolean }[];
  /** Part ids served in small paced chunks, so a test can watch a reader go away mid-file. */
  slowParts: Set<number>;
  /** Part ids whose server hangs after sending this many bytes (0: before its headers). */
  stalledParts: Map<number, number>;
}

const tokenOf = (req: Request) => (req.headers['x-plex-token'] as string | undefined) ?? (req.query['X-Plex-Token'] as string | undefined) ?? '';

/** `server://<machine>/com.plexapp.plugins.library/library/metadata/1,2,3` → the rating keys. */
function keysOfUri(uri: unknown): string[] {
  const match = /\/library\/metadata\/([\d,]+)$/.exec(String(uri ?? ''));
  return match ? match[1]!.split(',').filter(Boolean) : [];
}

/**
 * What the fake server streams and keeps per user: part files with Range support, the universal
 * transcoder's MP3, timeline reports, cover images, and playlists owned by the token that made them.
 * Mounted after the server routes, behind their token check.
 */
export function mediaRoutes(state: MediaState) {
  const { library, playlists } = state;
  const findPart = (partId: number): Json | undefined => {
    for (const entry of library.items.values()) {
      for (const media of (entry.item.Media as Json[] | undefined) ?? []) {
        const part = ((media.Part as Json[] | undefined) ?? []).find((p) => Number(p.id) === partId);
        if (part) return part;
      }
    }
    return undefined;
  };
  const owned = (req: Request, res: Response) => {
    const playlist = playlists.get(String(req.params.id));
    if (!playlist || playlist.owner !== tokenOf(req)) return void res.status(404).send();
    return playlist;
  };
  const sendPlaylist = (req: Request, res: Response, id: string) => sendContainer(req, res, { size: 1 }, { Metadata: [playlists.json(id)] });

  return (app: Express) => {
    app.get('/library/parts/:partId/:stamp/:file', (req, res) => {
      const part = findPart(Number(req.params.partId));
      if (!part) return void res.status(404).send();
      const body = partBytes(Number(part.id), Number(part.size ?? 1_000_000));
      const type = audioTypeOf(String(part.container ?? 'flac'));
      if (state.slowParts.has(Number(part.id)) && !req.headers.range) return void sendSlowly(res, body, type, state, Number(part.id));
      const stallAfter = state.stalledParts.get(Number(part.id));
      if (stallAfter !== undefined) return void stall(res, body.subarray(0, stallAfter), type, state, Number(part.id));
      sendRanged(req, res, body, type);
    });
    app.get('/music/:colon/transcode/universal/start.mp3', (req, res) => {
      const key = /^\/library\/metadata\/(\d+)$/.exec(String(req.query.path ?? ''))?.[1];
      if (!key || !library.find(key)) return void res.status(404).send();
      res.status(200).type('audio/mpeg').end(mp3Bytes(40));
    });
    app.get('/:colon/timeline', (req, res) => {
      if (state.timelineStatus !== 200) return void res.status(state.timelineStatus).send('timeline failed');
      sendContainer(req, res, { size: 0 }, {});
    });
    app.get(['/library/metadata/:id/thumb', '/library/metadata/:id/thumb/:stamp'], (req, res) => {
      if (!library.find(String(req.params.id))) return void res.status(404).send();
      res.status(200).type('image/jpeg').end(imageBytes(`thumb ${req.params.id}`));
    });
    app.get('/playlists', (req, res) => {
      const type = req.query.playlistType as string | undefined;
      const rows = playlists.ownedBy(tokenOf(req)).filter((p) => !type || p.playlistType === type);
      sendContainer(req, res, { size: rows.length }, { Metadata: rows.map((p) => playlists.json(p.ratingKey)) });
    });
    app.post('/playlists', (req, res) => {
      const id = playlists.create(tokenOf(req), String(req.query.title ?? 'Untitled'), String(req.query.type ?? 'audio'), keysOfUri(req.query.uri));
      sendPlaylist(req, res, id);
    });
    app.get('/playlists/:id', (req, res) => {
      if (owned(req, res)) sendPlaylist(req, res, String(req.params.id));
    });
    app.delete('/playlists/:id', (req, res) => {
      if (!owned(req, res)) return;
      playlists.delete(String(req.params.id));
      res.status(200).send();
    });
    app.get('/playlists/:id/items', (req, res) => {
      const playlist = owned(req, res);
      if (!playlist) return;
      const items = playlist.items.flatMap((entry) => {
        const item = library.find(entry.ratingKey);
        return item ? [{ ...item, playlistItemID: entry.playlistItemID }] : [];
      });
      sendContainer(req, res, { size: items.length, totalSize: items.length, ratingKey: playlist.ratingKey, title: playlist.title }, { Metadata: items });
    });
    app.put('/playlists/:id/items', (req, res) => {
      if (!owned(req, res)) return;
      playlists.add(String(req.params.id), keysOfUri(req.query.uri));
      sendPlaylist(req, res, String(req.params.id));
    });
    app.delete('/playlists/:id/items/:itemId', (req, res) => {
      if (!owned(req, res)) return;
      if (!playlists.remove(String(req.params.id), String(req.params.itemId))) return void res.status(404).send();
      sendPlaylist(req, res, String(req.params.id));
    });
    // The server's admin token reads every user's covers, as on the real server.
    app.get('/playlists/:id/composite/:stamp', (req, res) => {
      if (!playlists.get(String(req.params.id))) return void res.status(404).send();
      res.status(200).type('image/jpeg').end(imageBytes(`playlist ${req.params.id}`));
    });
  };
}

/** Writes 16 KiB every 20 ms and records whether the reader stayed to the end or went away. */
function sendSlowly(res: Response, body: Buffer, type: string, state: MediaState, partId: number): void {
  const read = { partId, finished: false, closed: false };
  state.partReads.push(read);
  res.status(200).setHeader('Content-Type', type);
  res.setHeader('Content-Length', String(body.length));
  let offset = 0;
  const timer = setInterval(() => {
    if (offset >= body.length) {
      clearInterval(timer);
      read.finished = true;
      res.end();
      return;
    }
    res.write(body.subarray(offset, offset + 16_384));
    offset += 16_384;
  }, 20);
  res.once('close', () => {
    clearInterval(timer);
    read.closed = true;
  });
}

/** Sends `head` of the file (headers only once there is a byte) and then nothing, until the reader leaves. */
function stall(res: Response, head: Buffer, type: string, state: MediaState, partId: number): void {
  const read = { partId, finished: false, closed: false };
  state.partReads.push(read);
  res.once('close', () => void (read.closed = true));
  if (head.length === 0) return;
  res.status(200).setHeader('Content-Type', type);
  res.write(head);
}
