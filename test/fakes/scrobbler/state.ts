import type { History } from './history.ts';

export interface FakeUser {
  name: string;
  history: History;
  nowPlaying?: { artist: string; track: string; album?: string };
}

/** An error the fake answers instead of the real thing, `times` times, for one method or all. */
export interface InjectedError {
  code: number;
  message?: string;
  times: number;
  method?: string;
  /** HTTP status of the envelope; the real service sends 200 for most, 403 for a bad token. */
  status?: number;
  /** Calls to let through first (fail the third page: skip 2). */
  skip?: number;
}

/** An album or track the fake's getInfo methods know. */
export interface FakeItem {
  artist: string;
  name: string;
  mbid?: string;
  album?: string;
}

const itemKey = (artist: string, name: string) => `${artist.toLowerCase()}::${name.toLowerCase()}`;

export class ScrobblerFakeState {
  readonly albums = new Map<string, FakeItem>();
  readonly tracks = new Map<string, FakeItem>();
  readonly users = new Map<string, FakeUser>();
  /** Web-auth tokens: the user who authorized each, or null while it waits. */
  readonly tokens = new Map<string, string | null>();
  /** Session key → user name. */
  readonly sessions = new Map<string, string>();
  readonly errors: InjectedError[] = [];
  /** Added to every recent-tracks answer, so a test can act while an import runs. */
  delayMs = 0;
  /** Who "logs in" on the fake auth page. */
  authorizeAs: string | null = null;
  private counter = 0;

  constructor(
    readonly apiKey: string,
    readonly secret: string,
  ) {}

  addUser(name: string, history: History, nowPlaying?: FakeUser['nowPlaying']): FakeUser {
    const user = { name, history, nowPlaying };
    this.users.set(name.toLowerCase(), user);
    this.authorizeAs ??= name;
    return user;
  }

  addAlbum(item: FakeItem): void {
    this.albums.set(itemKey(item.artist, item.name), item);
  }

  addTrack(item: FakeItem): void {
    this.tracks.set(itemKey(item.artist, item.name), item);
  }

  album(artist: string, name: string): FakeItem | undefined {
    return this.albums.get(itemKey(artist, name));
  }

  track(artist: string, name: string): FakeItem | undefined {
    return this.tracks.get(itemKey(artist, name));
  }

  user(name: string): FakeUser | undefined {
    return this.users.get(name.toLowerCase());
  }

  inject(error: Omit<InjectedError, 'times'> & { times?: number }): void {
    this.errors.push({ times: 1, ...error });
  }

  /** Takes the next injected error that applies to `method`, if any. */
  takeError(method: string): InjectedError | undefined {
    const error = this.errors.find((e) => e.times > 0 && (!e.method || e.method === method));
    if (!error) return undefined;
    if (error.skip) {
      error.skip--;
      return undefined;
    }
    error.times--;
    return error;
  }

  newToken(): string {
    return `token${String(++this.counter).padStart(27, '0')}`;
  }

  newSessionKey(user: string): string {
    const key = `sk${String(++this.counter).padStart(30, '0')}`;
    this.sessions.set(key, user);
    return key;
  }
}
