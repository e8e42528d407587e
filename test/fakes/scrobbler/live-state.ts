import type { Response } from 'express';
import type { ScrobblerFakeState } from './state.ts';

/** A play the fake took through track.scrobble or track.updateNowPlaying. */
export interface TakenPlay {
  user: string;
  params: Record<string, string>;
}

/** What the live (non-mirror) methods of the fake know, kept beside the fake's own state. */
export class LiveFakeState {
  /** Lowercased names whose getInfo/getSimilar answer error 6. */
  readonly unknownArtists = new Set<string>();
  /** user → `artist::track` (lowercased) → the names as loved. */
  readonly loved = new Map<string, Map<string, { artist: string; track: string }>>();
  /** user → lowercased `artist` or `artist::album` or `artist::track` → plays. */
  readonly plays = new Map<string, Map<string, number>>();
  readonly scrobbled: TakenPlay[] = [];
  readonly nowPlaying: TakenPlay[] = [];
  /** Lowercased artist → the album names artist.getTopAlbums lists, most played first. */
  readonly topAlbums = new Map<string, string[]>();
  /** Search answers this many matches in all, generated from the query. */
  searchTotal = 95;

  lovedBy(user: string) {
    const key = user.toLowerCase();
    if (!this.loved.has(key)) this.loved.set(key, new Map());
    return this.loved.get(key)!;
  }

  setPlays(user: string, key: string, plays: number): void {
    const u = user.toLowerCase();
    if (!this.plays.has(u)) this.plays.set(u, new Map());
    this.plays.get(u)!.set(key.toLowerCase(), plays);
  }

  playsOf(user: string, key: string): number {
    return this.plays.get(user.toLowerCase())?.get(key.toLowerCase()) ?? 0;
  }
}

const states = new WeakMap<ScrobblerFakeState, LiveFakeState>();

/** The live-method state of one fake. */
export function liveState(state: ScrobblerFakeState): LiveFakeState {
  let live = states.get(state);
  if (!live) {
    live = new LiveFakeState();
    states.set(state, live);
  }
  return live;
}

export function send(res: Response, body: unknown): true {
  res.json(body);
  return true;
}

/** The scrobbler's error envelope, with HTTP 200 as the service sends most of them. */
export function failWith(res: Response, code: number, message: string): true {
  return send(res, { error: code, message, links: [] });
}
