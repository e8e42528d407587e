import { fixtureJson } from '../harness.ts';

export type Json = Record<string, any>;
const fixture = (file: string) => fixtureJson<Json>('musicbrainz', file);

/** What the fake metabase knows: entities by `<kind>/<mbid>`, and the cover art archive's image lists. */
export class MetabaseFakeState {
  readonly entities = new Map<string, Json>();
  readonly coverArt = new Map<string, Json>();
  /** The next lookups or searches answered 503 (the service's "over the rate" answer). */
  busy = 0;
  busyRetryAfter: string | undefined;
  /** Answer 503 to a request that comes well under a second after the previous one, as the real service does. */
  enforceRate = false;
  lastAt = 0;
  /** Requests refused for coming too fast. */
  tooFast = 0;
  /** Every answer of the web service waits this long (a slow drain a test can cancel midway). */
  delayMs = 0;

  add<T extends Json>(kind: string, payload: T): T {
    this.entities.set(`${kind}/${payload.id}`, payload);
    return payload;
  }

  get(kind: string, mbid: string): Json | undefined {
    return this.entities.get(`${kind}/${mbid}`);
  }

  all(kind: string): Json[] {
    return [...this.entities].filter(([key]) => key.startsWith(`${kind}/`)).map(([, v]) => v);
  }

  /** The recorded payloads: an artist, a release group, three releases, recordings (one with ISRCs and a work). */
  loadFixtures(): void {
    const artist = this.add('artist', fixture('ws2.artist.json'));
    // The artist's area stands for every area (the health check's ping asks for one).
    this.add('area', { ...artist.area, aliases: [] });
    for (const a of fixture('ws2.artist.search.json').artists) if (!this.get('artist', a.id)) this.add('artist', a);
    this.add('release-group', fixture('ws2.release-group.inc-releases.json'));
    this.add('release', fixture('ws2.release.ff565cd7.no-inc.json'));
    this.add('release', fixture('ws2.release.multidisc.json'));
    this.add('release', fixture('ws2.release.dark-side-of-the-moon.inc-many.json'));
    this.add('recording', fixture('ws2.recording.inc-isrcs-rels.json'));
    for (const r of fixture('ws2.recording.search.query-isrc.json').recordings) this.add('recording', { ...r, score: undefined });
    const isrc = fixture('ws2.isrc.USGF19942501.inc-tags.json');
    for (const r of isrc.recordings) this.add('recording', { ...r, isrcs: [isrc.isrc] });
    this.coverArt.set('release/25fbfbb4-b1ee-4448-aadf-ae3bc2e2dd27', fixture('caa.release.25fbfbb4.json'));
    this.coverArt.set('release/76df3287-6cda-33eb-8e9a-044b5e15ffdd', fixture('caa.release.76df3287.doc-example.json'));
  }
}
