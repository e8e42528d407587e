import type { Express, Request, Response } from 'express';
import type { FakeLibrary, Json } from './library.ts';
import { sendContainer } from './render.ts';

export interface ServerIdentity {
  machineIdentifier: string;
  friendlyName: string;
  version: string;
  platform: string;
  platformVersion: string;
}

export interface ServerState {
  library: FakeLibrary;
  identity: ServerIdentity;
  /** Tokens the server accepts: the admin token and every linked user's. */
  acceptsToken(token: string | undefined): boolean;
  /** Paths answered as XML whatever the client asks (documents recorded only as XML). */
  xmlOnly: Set<string>;
}

const tokenOf = (req: Request) => (req.headers['x-plex-token'] as string | undefined) ?? (req.query['X-Plex-Token'] as string | undefined);

/** Container start and size from the headers, or the query parameters of the same names. */
function pagingOf(req: Request): { start: number; size: number } {
  const read = (name: string) => (req.headers[name.toLowerCase()] as string | undefined) ?? (req.query[name] as string | undefined);
  const start = Number(read('X-Plex-Container-Start') ?? 0);
  const size = read('X-Plex-Container-Size');
  return { start: Number.isFinite(start) ? start : 0, size: size === undefined ? Number.POSITIVE_INFINITY : Number(size) };
}

const TYPE_NAMES: Record<string, string> = { '8': 'artist', '9': 'album', '10': 'track' };

/** The media server's API over the fake library: root, identity, sections, listings, children. */
export function serverRoutes(state: ServerState) {
  const { library } = state;
  const send = (req: Request, res: Response, attributes: Json, children: Record<string, Json[]>) =>
    sendContainer(req, res, attributes, children, state.xmlOnly.has(req.path));
  const paged = (req: Request, res: Response, items: Json[], attributes: Json = {}) => {
    const { start, size } = pagingOf(req);
    const page = items.slice(start, start + size);
    send(req, res, { size: page.length, totalSize: items.length, offset: start, ...attributes }, { Metadata: page });
  };
  return (app: Express) => {
    app.get('/identity', (req, res) => {
      const { machineIdentifier, version } = state.identity;
      send(req, res, { size: 0, claimed: true, machineIdentifier, version }, {});
    });
    app.use((req, res, next) => {
      if (req.path.startsWith('/api/')) return next();
      if (!state.acceptsToken(tokenOf(req))) return void res.status(401).type('text/html').send('<html><head><title>Unauthorized</title></head><body><h1>401 Unauthorized</h1></body></html>');
      next();
    });
    app.get('/', (req, res) => send(req, res, { size: 0, ...state.identity, myPlex: true }, {}));
    app.get('/library/sections', (req, res) => {
      const sections = library.sections.map((s) => ({ allowSync: true, key: s.key, type: s.type, title: s.title, agent: 'tv.plex.agents.music', uuid: s.uuid, updatedAt: s.updatedAt, Location: [{ id: s.key, path: `/storage/${s.key}` }] }));
      send(req, res, { size: sections.length, title1: 'Plex Library' }, { Directory: sections });
    });
    app.get('/library/sections/:id/all', (req, res) => {
      const section = library.sections.find((s) => s.key === req.params.id);
      if (!section) return void res.status(404).send();
      const type = TYPE_NAMES[String(req.query.type ?? '8')] ?? 'artist';
      let items = library.ofType(section.key, type);
      if (req.query['artist.id']) items = items.filter((i) => i.parentRatingKey === String(req.query['artist.id']));
      if (req.query['album.id']) items = items.filter((i) => i.parentRatingKey === String(req.query['album.id']));
      paged(req, res, items.sort((a, b) => Number(a.ratingKey) - Number(b.ratingKey)), { librarySectionID: Number(section.key), librarySectionTitle: section.title });
    });
    app.get('/library/metadata/:id', (req, res) => {
      const item = library.find(String(req.params.id));
      if (!item) return void res.status(404).send();
      send(req, res, { size: 1 }, { Metadata: [item] });
    });
    app.get('/library/metadata/:id/children', (req, res) => {
      const parent = library.find(String(req.params.id));
      if (!parent) return void res.status(404).send();
      paged(req, res, library.childrenOf(String(req.params.id)), { key: parent.ratingKey, title2: parent.title });
    });
  };
}
