import type { Response } from 'express';
import { fixtureJson } from '../harness.ts';
import { failWith, liveState, send } from './live-state.ts';
import type { ScrobblerFakeState } from './state.ts';

type Params = Record<string, string>;
const fixture = <T = any>(file: string) => fixtureJson<T>('lastfm', file);
const WRITES = new Set(['track.love', 'track.unlove', 'track.scrobble', 'track.updatenowplaying']);
const echo = (value: string | undefined) => ({ corrected: '0', '#text': value ?? '' });

/** User reads (profile, top lists, loved tracks, charts, getInfo with `username`) and the signed writes. */
export function userMethod(state: ScrobblerFakeState, method: string, params: Params, res: Response): boolean {
  if (WRITES.has(method)) return write(state, method, params, res);
  if (method === 'album.getinfo' || method === 'track.getinfo') return params.username ? itemWithUser(state, method, params, res) : false;
  if (!method.startsWith('user.') && method !== 'library.getartists') return false;
  const user = state.user(params.user ?? '');
  if (!user) return failWith(res, 6, 'User not found');
  const live = liveState(state);
  const attr = { user: user.name, page: params.page ?? '1', perPage: params.limit ?? '50', totalPages: '1', total: '0' };
  switch (method) {
    case 'user.getinfo': {
      const body = fixture('user.getInfo.json');
      body.user.name = user.name;
      return send(res, body);
    }
    case 'user.gettopartists': {
      const body = fixture('user.getTopArtists.limit3.json');
      body.topartists['@attr'] = { ...body.topartists['@attr'], user: user.name, page: attr.page, perPage: attr.perPage };
      return send(res, body);
    }
    case 'user.getlovedtracks': {
      const track = [...live.lovedBy(user.name).values()].map((t) => ({ name: t.track, artist: { name: t.artist, mbid: '', url: '' }, date: { uts: '1700000000' }, mbid: '', url: '' }));
      return send(res, { lovedtracks: { track, '@attr': { ...attr, total: String(track.length) } } });
    }
    case 'library.getartists':
      return send(res, { artists: { artist: [{ name: 'Queen', playcount: '1511', tagcount: '0', mbid: '', url: '', streamable: '0', image: [] }], '@attr': { ...attr, total: '1' } } });
    case 'user.getweeklychartlist':
      return send(res, { weeklychartlist: { chart: [{ '#text': '', from: '1700000000', to: '1700604800' }], '@attr': { user: user.name } } });
    case 'user.getweeklyartistchart':
      return send(res, { weeklyartistchart: { artist: [{ name: 'Queen', mbid: '', playcount: '12', url: '', '@attr': { rank: '1' } }], '@attr': { user: user.name, from: params.from, to: params.to } } });
    default:
      // user.getRecentTracks and the rest are the mirror's fake methods (routes.ts).
      return false;
  }
}

/** getInfo asked with `username`: the recorded shape plus that user's `userplaycount` (and `userloved`). */
function itemWithUser(state: ScrobblerFakeState, method: string, params: Params, res: Response): true {
  const live = liveState(state);
  const artist = params.artist ?? '';
  if (method === 'album.getinfo') {
    if (live.unknownArtists.has(artist.toLowerCase())) return failWith(res, 6, 'Album not found');
    const body = fixture('album.getInfo.Cher-Believe.json');
    Object.assign(body.album, { artist, name: params.album, userplaycount: live.playsOf(params.username!, `${artist}::${params.album}`) });
    return send(res, body);
  }
  const body = fixture('track.getInfo.with-username.json');
  const loved = live.lovedBy(params.username!).has(`${artist}::${params.track}`.toLowerCase());
  Object.assign(body.track, { name: params.track, userplaycount: String(live.playsOf(params.username!, `${artist}::${params.track}`)), userloved: loved ? '1' : '0' });
  body.track.artist.name = artist;
  return send(res, body);
}

function write(state: ScrobblerFakeState, method: string, params: Params, res: Response): true {
  const user = state.sessions.get(params.sk ?? '');
  if (!user) return failWith(res, 9, 'Invalid session key - Please re-authenticate');
  const live = liveState(state);
  const key = `${params.artist}::${params.track}`.toLowerCase();
  switch (method) {
    case 'track.love':
      live.lovedBy(user).set(key, { artist: params.artist ?? '', track: params.track ?? '' });
      return send(res, {});
    case 'track.unlove':
      live.lovedBy(user).delete(key);
      return send(res, {});
    case 'track.scrobble': {
      live.scrobbled.push({ user, params });
      const tooOld = Number(params.timestamp) < Date.now() / 1000 - 14 * 86400;
      const scrobble = {
        track: echo(params.track),
        artist: echo(params.artist),
        album: echo(params.album),
        albumArtist: echo(params.albumArtist),
        timestamp: params.timestamp,
        ignoredMessage: { '#text': tooOld ? 'Timestamp too old' : '', code: tooOld ? '3' : '0' },
      };
      return send(res, { scrobbles: { scrobble, '@attr': { accepted: tooOld ? '0' : '1', ignored: tooOld ? '1' : '0' } } });
    }
    default:
      live.nowPlaying.push({ user, params });
      return send(res, {
        nowplaying: { track: echo(params.track), artist: echo(params.artist), album: echo(params.album), albumArtist: echo(params.albumArtist), ignoredMessage: { code: '0', '#text': '' } },
      });
  }
}
