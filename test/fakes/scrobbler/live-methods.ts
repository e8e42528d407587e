import type { Response } from 'express';
import { fixtureJson } from '../harness.ts';
import { liveState, send } from './live-state.ts';
import { userMethod } from './live-user-methods.ts';
import type { ScrobblerFakeState } from './state.ts';

type Params = Record<string, string>;
const fixture = <T = any>(file: string) => fixtureJson<T>('lastfm', file);

/**
 * The catalog, chart, tag, geo, user and write methods behind the live proxies, answered from the
 * recorded payloads (names replaced by the ones asked for). Returns false for a method it leaves
 * to the mirror's handlers, including album/track.getInfo asked without a `username`.
 */
export function answerLive(state: ScrobblerFakeState, method: string, params: Params, res: Response): boolean {
  const live = liveState(state);
  const artist = params.artist ?? '';
  const unknown = live.unknownArtists.has(artist.toLowerCase());
  switch (method) {
    case 'artist.getinfo': {
      if (unknown) return sendFixture(res, 'artist.getInfo.not-found.json');
      const body = fixture('artist.getInfo.U2.json');
      body.artist.name = artist;
      if (params.username) body.artist.stats.userplaycount = String(live.playsOf(params.username, artist));
      return send(res, body);
    }
    case 'artist.getsimilar':
      return unknown ? sendFixture(res, 'error.6-artist-not-found.json') : sendFixture(res, 'artist.getSimilar.U2.json');
    case 'artist.gettopalbums':
      return unknown ? sendFixture(res, 'error.6-artist-not-found.json') : send(res, topAlbums(artist, live.topAlbums.get(artist.toLowerCase()) ?? []));
    case 'artist.gettoptracks':
      return unknown ? sendFixture(res, 'error.6-artist-not-found.json') : sendFixture(res, 'artist.getTopTracks.U2.limit2.json');
    case 'artist.getcorrection':
      return sendFixture(res, artist.toLowerCase() === 'avici' ? 'artist.getCorrection.Avici.json' : 'artist.getCorrection.no-correction.json');
    case 'track.getcorrection':
      return sendFixture(res, 'track.getCorrection.json');
    case 'track.getsimilar':
      return sendFixture(res, 'track.getSimilar.json');
    case 'artist.search':
    case 'album.search':
    case 'track.search':
      return send(res, search(method.split('.')[0] as 'artist' | 'album' | 'track', params, live.searchTotal));
    case 'chart.gettopartists':
      return sendFixture(res, 'chart.getTopArtists.limit10.json');
    case 'chart.gettoptags':
      return sendFixture(res, 'chart.getTopTags.limit10.json');
    case 'chart.gettoptracks':
      return sendFixture(res, 'chart.getTopTracks.limit10.json');
    case 'geo.gettopartists':
    case 'geo.gettoptracks': {
      if (!/^[A-Z][a-z]+( [A-Z][a-z]+)*$/.test(params.country ?? '') || params.country === 'Texas') return sendFixture(res, 'error.6-geo-country-invalid.json');
      return sendFixture(res, method === 'geo.gettopartists' ? 'geo.getTopArtists.Canada.json' : 'geo.getTopTracks.Canada.json');
    }
    case 'tag.getinfo':
      return sendFixture(res, 'tag.getInfo.metal.json');
    case 'tag.gettopartists': {
      const body = fixture('tag.getTopArtists.unknown-tag.json');
      body.topartists['@attr'].tag = params.tag;
      return send(res, body);
    }
    default:
      return userMethod(state, method, params, res);
  }
}

function sendFixture(res: Response, file: string): true {
  return send(res, fixture(file));
}

/** `<kind>.search` in the recorded shape: `results` with opensearch keys and `<kind>matches`. */
function search(kind: 'artist' | 'album' | 'track', params: Params, total: number) {
  const q = params[kind] ?? '';
  const limit = Math.max(1, Number(params.limit ?? 30) || 30);
  const page = Math.max(1, Number(params.page ?? 1) || 1);
  const rows = [];
  for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i++) {
    const name = `${q} ${i + 1}`;
    const image = ['small', 'medium', 'large', 'extralarge'].map((size) => ({ '#text': i % 2 ? `https://images.invalid/i/u/${size}/${i}.png` : '', size }));
    if (kind === 'artist') rows.push({ name, listeners: String(1000 - i), mbid: '', url: `https://www.last.fm/music/${encodeURIComponent(name)}`, streamable: '0', image });
    else rows.push({ name, artist: `Artist ${i + 1}`, url: `https://www.last.fm/music/x/${encodeURIComponent(name)}`, streamable: '0', image, mbid: '', ...(kind === 'track' ? { listeners: '10' } : {}) });
  }
  return {
    results: {
      'opensearch:Query': { '#text': '', role: 'request', searchTerms: q, startPage: String(page) },
      'opensearch:totalResults': String(total),
      'opensearch:startIndex': String((page - 1) * limit),
      'opensearch:itemsPerPage': String(limit),
      [`${kind}matches`]: { [kind]: rows },
      '@attr': { for: q },
    },
  };
}

/** artist.getTopAlbums in the documented shape (no recording was made of it). */
function topAlbums(artist: string, names: string[]) {
  const image = (name: string) => ['small', 'medium', 'large', 'extralarge'].map((size) => ({ '#text': `https://images.example/${encodeURIComponent(name)}-${size}.png`, size }));
  return {
    topalbums: {
      album: names.map((name, i) => ({ name, playcount: 1000 - i, mbid: '', url: `https://www.last.fm/music/${encodeURIComponent(artist)}/${encodeURIComponent(name)}`, artist: { name: artist, mbid: '', url: '' }, image: image(name) })),
      '@attr': { artist, page: '1', perPage: '50', totalPages: '1', total: String(names.length) },
    },
  };
}
