import { fixtureJson } from '../harness.ts';

/** An item as the server's JSON shows it (`Metadata[]` entries), kept in that shape. */
export type Json = Record<string, unknown>;

export interface FakeSection {
  key: string;
  type: 'artist' | 'movie' | 'show' | 'photo';
  title: string;
  uuid: string;
  updatedAt: number;
}

export interface TrackSpec {
  title: string;
  index?: number;
  disc?: number;
  codec?: string;
  container?: string;
  bitDepth?: number;
  samplingRate?: number;
  bitrate?: number;
  duration?: number;
  size?: number;
  ratingKey?: string;
}

/**
 * The fake server's library: sections, and artists, albums and tracks by rating key, each in the
 * server's JSON item shape. Tests add, change and remove items; every change bumps `updatedAt`, as
 * the real server does when it rescans an album.
 */
export class FakeLibrary {
  readonly sections: FakeSection[] = [
    { key: '1', type: 'movie', title: 'Movies', uuid: '41a28495-035e-46b0-ac84-878f096614da', updatedAt: 1602461679 },
    { key: '5', type: 'artist', title: 'Music', uuid: '6248e967-8d45-4957-ba5e-ca85df9104b9', updatedAt: 1602211102 },
  ];
  readonly items = new Map<string, { section: string; item: Json }>();
  /** Parent rating key → child rating keys: album children stay cheap in a library of 100,000 tracks. */
  private readonly children = new Map<string, Set<string>>();
  private nextKey = 10_000;
  private clock = 1_700_000_000;

  /** The recorded Skrillex artist with its album and three tracks, and System of a Down without albums. */
  loadFixtures(): void {
    const artists = fixtureJson<{ MediaContainer: { Metadata: Json[] } }>('plex', 'pms.library.sections.5.all.type8-artists.json').MediaContainer.Metadata;
    for (const artist of artists) this.put('5', artist);
    for (const album of fixtureJson<{ MediaContainer: { Metadata: Json[] } }>('plex', 'pms.library.sections.5.all.type9-artist.id.json').MediaContainer.Metadata) {
      this.put('5', album);
    }
    for (const track of fixtureJson<{ MediaContainer: { Metadata: Json[] } }>('plex', 'pms.library.metadata.157.children-album-tracks.json').MediaContainer.Metadata) {
      this.put('5', track);
    }
  }

  addSection(section: Omit<FakeSection, 'uuid' | 'updatedAt'>): void {
    this.sections.push({ ...section, uuid: `uuid-${section.key}`, updatedAt: this.tick() });
  }

  addArtist(title: string, section = '5', extra: Json = {}): string {
    const ratingKey = String(extra.ratingKey ?? this.newKey());
    const at = this.tick();
    this.put(section, { ratingKey, key: `/library/metadata/${ratingKey}/children`, type: 'artist', title, addedAt: at, updatedAt: at, ...extra });
    return ratingKey;
  }

  addAlbum(artistKey: string, title: string, extra: Json = {}): string {
    const artist = this.get(artistKey);
    const ratingKey = String(extra.ratingKey ?? this.newKey());
    const at = this.tick();
    this.put(this.items.get(artistKey)!.section, {
      ratingKey,
      key: `/library/metadata/${ratingKey}/children`,
      parentRatingKey: artistKey,
      type: 'album',
      title,
      parentTitle: artist.title,
      addedAt: at,
      updatedAt: at,
      ...extra,
    });
    return ratingKey;
  }

  addTrack(albumKey: string, spec: TrackSpec): string {
    const album = this.get(albumKey);
    const ratingKey = spec.ratingKey ?? String(this.newKey());
    const at = this.tick();
    const codec = spec.codec ?? 'flac';
    const container = spec.container ?? codec;
    const partId = this.newKey();
    const stream = { streamType: 2, codec, ...(spec.bitDepth ? { bitDepth: spec.bitDepth } : {}), samplingRate: spec.samplingRate ?? 44100 };
    this.put(this.items.get(albumKey)!.section, {
      ratingKey,
      key: `/library/metadata/${ratingKey}`,
      parentRatingKey: albumKey,
      grandparentRatingKey: album.parentRatingKey,
      type: 'track',
      title: spec.title,
      parentTitle: album.title,
      grandparentTitle: album.parentTitle,
      index: spec.index ?? 1,
      parentIndex: spec.disc ?? 1,
      duration: spec.duration ?? 180_000,
      addedAt: at,
      updatedAt: at,
      Media: [
        {
          id: partId,
          duration: spec.duration ?? 180_000,
          bitrate: spec.bitrate ?? 900,
          audioChannels: 2,
          audioCodec: codec,
          container,
          Part: [{ id: partId, key: `/library/parts/${partId}/${at}/file.${container}`, file: `/music/${ratingKey}.${container}`, size: spec.size ?? 1_000_000, container, Stream: [stream] }],
        },
      ],
    });
    this.touch(albumKey);
    return ratingKey;
  }

  /**
   * A generated library: `artists` artists with `albumsPerArtist` albums of `tracksPerAlbum` tracks,
   * every `lossyEvery`-th track an MP3 (0: none). Answers the album keys, for changing some later.
   */
  generate(shape: { artists: number; albumsPerArtist: number; tracksPerAlbum: number; lossyEvery?: number; section?: string }): string[] {
    const albums: string[] = [];
    let n = 0;
    for (let a = 0; a < shape.artists; a++) {
      const artist = this.addArtist(`Generated Artist ${a}`, shape.section);
      for (let b = 0; b < shape.albumsPerArtist; b++) {
        const album = this.addAlbum(artist, `Generated Album ${a}.${b}`, { year: 1970 + (b % 50) });
        albums.push(album);
        for (let t = 0; t < shape.tracksPerAlbum; t++) {
          const lossy = shape.lossyEvery ? ++n % shape.lossyEvery === 0 : false;
          this.addTrack(album, { title: `Generated Track ${a}.${b}.${t}`, index: t + 1, ...(lossy ? { codec: 'mp3', bitrate: 320 } : { codec: 'flac', bitDepth: 16 }) });
        }
      }
    }
    return albums;
  }

  /** Changes an item's fields and marks it (and, for a track, its album) updated. */
  update(ratingKey: string, changes: Json): void {
    const entry = this.items.get(ratingKey);
    if (!entry) throw new Error(`no item ${ratingKey}`);
    if (changes.parentRatingKey !== undefined && entry.item.parentRatingKey) this.children.get(String(entry.item.parentRatingKey))?.delete(ratingKey);
    entry.item = { ...entry.item, ...changes, updatedAt: this.tick() };
    this.put(entry.section, entry.item);
    if (entry.item.type === 'track') this.touch(String(entry.item.parentRatingKey));
  }

  /** Removes an item and everything under it. */
  remove(ratingKey: string): void {
    for (const child of this.childrenOf(ratingKey)) this.remove(String(child.ratingKey));
    const entry = this.items.get(ratingKey);
    this.items.delete(ratingKey);
    if (entry?.item.parentRatingKey) this.children.get(String(entry.item.parentRatingKey))?.delete(ratingKey);
    if (entry?.item.type === 'track') this.touch(String(entry.item.parentRatingKey));
  }

  get(ratingKey: string): Json {
    const entry = this.items.get(ratingKey);
    if (!entry) throw new Error(`no item ${ratingKey}`);
    return entry.item;
  }

  find(ratingKey: string): Json | undefined {
    return this.items.get(ratingKey)?.item;
  }

  ofType(section: string, type: string): Json[] {
    return [...this.items.values()].filter((e) => e.section === section && e.item.type === type).map((e) => e.item);
  }

  childrenOf(ratingKey: string): Json[] {
    const children = [...(this.children.get(ratingKey) ?? [])].map((key) => this.items.get(key)!.item);
    return children.sort((a, b) => Number(a.parentIndex ?? 0) - Number(b.parentIndex ?? 0) || Number(a.index ?? 0) - Number(b.index ?? 0));
  }

  private touch(albumKey: string): void {
    const entry = this.items.get(albumKey);
    if (entry) entry.item = { ...entry.item, updatedAt: this.tick() };
  }

  private put(section: string, item: Json): void {
    const key = String(item.ratingKey);
    this.items.set(key, { section, item });
    if (item.parentRatingKey) {
      const siblings = this.children.get(String(item.parentRatingKey)) ?? new Set<string>();
      siblings.add(key);
      this.children.set(String(item.parentRatingKey), siblings);
    }
  }

  private newKey(): number {
    return this.nextKey++;
  }

  /** A strictly increasing time in seconds, so every change is visible in `updatedAt`. */
  private tick(): number {
    return ++this.clock;
  }
}
