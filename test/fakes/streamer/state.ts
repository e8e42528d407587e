import { createHash, randomBytes } from 'node:crypto';
import { fixtureJson } from '../harness.ts';

export type Json = Record<string, any>;

/** An account of the fake: its profile and library, in the Web API's object shapes. */
export interface FakeAccount {
  id: string;
  display_name: string;
  savedTracks: Json[];
  savedAlbums: Json[];
  followedArtists: Json[];
  playlists: { playlist: Json; items: Json[] }[];
  recentlyPlayed: Json[];
}

interface Grant {
  accountId: string;
  codeChallenge: string;
  redirectUri: string;
}

/** A failure the next API requests answer instead of their payload. */
export type Injected = { status: 429; retryAfter: number } | { status: 500 | 502 | 503 };

/**
 * What the fake accounts service and API know. Tokens are random; access tokens expire on the
 * fake's own clock (`expireAccessTokens` ages them at once), refresh tokens rotate when
 * `rotateRefreshTokens` is on, and a revoked refresh token answers `invalid_grant`.
 */
export class StreamerFakeState {
  readonly accounts = new Map<string, FakeAccount>();
  readonly codes = new Map<string, Grant>();
  readonly accessTokens = new Map<string, { accountId: string; expiresAt: number }>();
  readonly refreshTokens = new Map<string, string>();
  readonly appTokens = new Map<string, number>();
  readonly failures: Injected[] = [];
  rotateRefreshTokens = false;
  /** The largest page served whatever `limit` asks, to exercise paging with few items. */
  maxPage = 50;
  /** Applications registered since late 2024 get 403 from the audio-features endpoint. */
  audioFeaturesForbidden = true;
  /** Called on every API page served (the bench and cancel tests hook in here). */
  onPage: (path: string) => void | Promise<void> = () => undefined;

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  addAccount(id: string, display_name = id): FakeAccount {
    const account: FakeAccount = { id, display_name, savedTracks: [], savedAlbums: [], followedArtists: [], playlists: [], recentlyPlayed: [] };
    this.accounts.set(id, account);
    return account;
  }

  /** The user approved the app: a code for the redirect, bound to the PKCE challenge the authorize URL carried. */
  approve(accountId: string, authorizeUrl: string): { code: string; state: string; redirectUri: string } {
    const url = new URL(authorizeUrl);
    const code = randomBytes(12).toString('hex');
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    this.codes.set(code, { accountId, codeChallenge: url.searchParams.get('code_challenge') ?? '', redirectUri });
    return { code, state: url.searchParams.get('state') ?? '', redirectUri };
  }

  /** Exchanges a code: the verifier must hash to the challenge and the redirect URI must match. */
  redeem(code: string, verifier: string, redirectUri: string): string | null {
    const grant = this.codes.get(code);
    this.codes.delete(code);
    if (!grant || grant.redirectUri !== redirectUri) return null;
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    return challenge === grant.codeChallenge ? grant.accountId : null;
  }

  issue(accountId: string, lifetimeS = 3600): { access_token: string; refresh_token: string; expires_in: number } {
    const access_token = `at-${randomBytes(16).toString('hex')}`;
    const refresh_token = `rt-${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(access_token, { accountId, expiresAt: Date.now() + lifetimeS * 1000 });
    this.refreshTokens.set(refresh_token, accountId);
    return { access_token, refresh_token, expires_in: lifetimeS };
  }

  /** A client-credentials token: the app's, no user's. */
  issueAppToken(lifetimeS = 3600): { access_token: string; expires_in: number } {
    const access_token = `app-${randomBytes(16).toString('hex')}`;
    this.appTokens.set(access_token, Date.now() + lifetimeS * 1000);
    return { access_token, expires_in: lifetimeS };
  }

  appTokenValid(authorization: string | undefined): boolean {
    const expiresAt = authorization?.startsWith('Bearer ') ? this.appTokens.get(authorization.slice(7)) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  expireAccessTokens(): void {
    for (const token of this.accessTokens.values()) token.expiresAt = 0;
  }

  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  accountOf(authorization: string | undefined): FakeAccount | undefined {
    const token = authorization?.startsWith('Bearer ') ? this.accessTokens.get(authorization.slice(7)) : undefined;
    if (!token || token.expiresAt <= Date.now()) return undefined;
    return this.accounts.get(token.accountId);
  }

  /** Every token the fake ever issued, to look for them where they must not be. */
  issuedTokens(): string[] {
    return [...this.accessTokens.keys(), ...this.refreshTokens.keys(), ...this.appTokens.keys()];
  }
}

/** The recorded payloads are the templates every built item copies. */
const TEMPLATES = {
  savedTrack: () => fixtureJson<Json>('spotify', 'me.tracks.json').items[0],
  savedAlbum: () => fixtureJson<Json>('spotify', 'me.albums.limit1.json').items[0],
  artist: () => fixtureJson<Json>('spotify', 'me.following.type-artist.json').artists.items[0],
  playlist: () => fixtureJson<Json>('spotify', 'me.playlists.json').items[0],
  playlistItem: () => fixtureJson<Json>('spotify', 'playlists.id.tracks.json').items[0],
  play: () => fixtureJson<Json>('spotify', 'me.player.recently-played.limit2.json').items[0],
};

/** A 22-character base62 id, as the API's ids are. */
export function spotifyId(seed: string): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = createHash('sha256').update(seed).digest();
  return Array.from(bytes.subarray(0, 22), (b) => alphabet[b % 62]).join('');
}

export interface TrackSpec {
  name: string;
  artist: string;
  album: string;
  isrc?: string | null;
  upc?: string;
}

/** A full track object in the recorded shape, with its own ids. */
export function track(spec: TrackSpec): Json {
  const base = structuredClone(TEMPLATES.savedTrack().track);
  const artist = { ...base.artists[0], id: spotifyId(`artist:${spec.artist}`), name: spec.artist };
  base.id = spotifyId(`track:${spec.artist}:${spec.album}:${spec.name}`);
  base.name = spec.name;
  base.uri = `spotify:track:${base.id}`;
  base.artists = [artist];
  // The API embeds the same album (images, release date) that /me/albums shows in full.
  const { album } = TEMPLATES.savedAlbum();
  base.album = { ...base.album, id: spotifyId(`album:${spec.artist}:${spec.album}`), name: spec.album, artists: [artist], images: album.images, release_date: album.release_date, release_date_precision: album.release_date_precision };
  base.external_ids = spec.isrc === null ? {} : { isrc: spec.isrc ?? `FAKE${base.id.slice(0, 8).toUpperCase()}` };
  return base;
}

export const savedTrack = (t: Json, added_at = '2024-01-01T00:00:00Z'): Json => ({ added_at, track: t });

export function savedAlbum(spec: { name: string; artist: string; upc?: string }, added_at = '2024-01-01T00:00:00Z'): Json {
  const { album } = structuredClone(TEMPLATES.savedAlbum());
  const artist = { ...album.artists[0], id: spotifyId(`artist:${spec.artist}`), name: spec.artist };
  return { added_at, album: { ...album, id: spotifyId(`album:${spec.artist}:${spec.name}`), name: spec.name, artists: [artist], external_ids: spec.upc ? { upc: spec.upc } : {}, tracks: { ...album.tracks, items: [] } } };
}

export function artist(name: string): Json {
  return { ...structuredClone(TEMPLATES.artist()), id: spotifyId(`artist:${name}`), name };
}

export function playlist(name: string, ownerId: string, items: Json[]): { playlist: Json; items: Json[] } {
  const base = structuredClone(TEMPLATES.playlist());
  const id = spotifyId(`playlist:${ownerId}:${name}`);
  const snapshot_id = createHash('sha1').update(JSON.stringify([name, items.map((i) => i.id)])).digest('base64');
  const template = TEMPLATES.playlistItem();
  return {
    playlist: { ...base, id, name, snapshot_id, owner: { ...base.owner, id: ownerId, display_name: ownerId }, tracks: { ...base.tracks, total: items.length } },
    items: items.map((t) => ({ ...structuredClone(template), track: t })),
  };
}

export const play = (t: Json, played_at: string): Json => ({ ...structuredClone(TEMPLATES.play()), played_at, track: t });
