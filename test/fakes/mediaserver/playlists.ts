import type { Json } from './library.ts';

export interface FakePlaylist {
  ratingKey: string;
  /** The token that created it: only that token sees it, as a user's playlists on the real server. */
  owner: string;
  title: string;
  playlistType: string;
  smart: boolean;
  /** Cover source; a playlist without one has no `composite`. */
  composite: boolean;
  items: { ratingKey: string; playlistItemID: string }[];
  addedAt: number;
  updatedAt: number;
}

/** The server's playlists, per owning token. */
export class FakePlaylists {
  private readonly byKey = new Map<string, FakePlaylist>();
  private nextKey = 90_000;
  private nextItem = 1;
  private clock = 1_700_100_000;

  create(owner: string, title: string, playlistType: string, ratingKeys: string[], options: { smart?: boolean; composite?: boolean } = {}): string {
    const ratingKey = String(this.nextKey++);
    const at = ++this.clock;
    this.byKey.set(ratingKey, { ratingKey, owner, title, playlistType, smart: options.smart ?? false, composite: options.composite ?? true, items: [], addedAt: at, updatedAt: at });
    this.add(ratingKey, ratingKeys);
    return ratingKey;
  }

  get(ratingKey: string): FakePlaylist | undefined {
    return this.byKey.get(ratingKey);
  }

  ownedBy(owner: string): FakePlaylist[] {
    return [...this.byKey.values()].filter((p) => p.owner === owner);
  }

  all(): FakePlaylist[] {
    return [...this.byKey.values()];
  }

  add(ratingKey: string, itemKeys: string[]): void {
    const playlist = this.mustGet(ratingKey);
    for (const key of itemKeys) playlist.items.push({ ratingKey: key, playlistItemID: String(this.nextItem++) });
    playlist.updatedAt = ++this.clock;
  }

  remove(ratingKey: string, playlistItemID: string): boolean {
    const playlist = this.mustGet(ratingKey);
    const before = playlist.items.length;
    playlist.items = playlist.items.filter((i) => i.playlistItemID !== playlistItemID);
    playlist.updatedAt = ++this.clock;
    return playlist.items.length < before;
  }

  delete(ratingKey: string): void {
    this.byKey.delete(ratingKey);
  }

  /** The playlist as the server's JSON shows it in `Metadata[]`. */
  json(ratingKey: string): Json {
    const p = this.mustGet(ratingKey);
    return {
      ratingKey: p.ratingKey,
      key: `/playlists/${p.ratingKey}/items`,
      guid: `com.plexapp.agents.none://fake-${p.ratingKey}`,
      type: 'playlist',
      title: p.title,
      summary: '',
      smart: p.smart,
      playlistType: p.playlistType,
      ...(p.composite ? { composite: `/playlists/${p.ratingKey}/composite/${p.updatedAt}` } : {}),
      leafCount: p.items.length,
      duration: p.items.length * 180_000,
      addedAt: p.addedAt,
      updatedAt: p.updatedAt,
    };
  }

  private mustGet(ratingKey: string): FakePlaylist {
    const playlist = this.byKey.get(ratingKey);
    if (!playlist) throw new Error(`no playlist ${ratingKey}`);
    return playlist;
  }
}
