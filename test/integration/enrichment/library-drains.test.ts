import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { toNewEvent } from '../../../infra/eventstore/command-handler.ts';
import { unitOfWork } from '../../../infra/projections/read-models.ts';
import type { MirrorItem } from '../../../shared/events/mediaserver-library.events.ts';
import { mediaserverSectionStream } from '../../../shared/streams.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

const at = '2026-01-01T00:00:00.000Z';
const media = (codec: string, bit_depth: number | null, sampling_rate: number, lossless: boolean) => ({
  codec, container: codec, bit_depth, sampling_rate, bitrate: 900, lossless, size: 10, part_id: 1, part_key: '/library/parts/1/1/file',
});
const mirrored = (rating_key: string, m: MirrorItem['media']): MirrorItem => ({
  rating_key, kind: 'track', title: `Track ${rating_key}`, parent_rating_key: 'b1', grandparent_rating_key: 'a1', parent_title: 'Face to Face', grandparent_title: 'The Kinks',
  index: 1, disc: 1, year: null, duration_ms: 1000, thumb: null, genres: [], added_at: 1, updated_at: 2, view_count: null, last_viewed_at: null, user_rating: null, media: m, canonical_id: null,
});

describe('no-network drains: audio quality, tags, artist reproject', () => {
  let app: TestApp;
  let admin: ApiClient;
  const ids = {} as Record<'artist' | 'sunset' | 'sunny' | 'lola' | 'faceToFace' | 'village', string>;
  const kinks = artistSeen('mediaserver', 'mediaserver::srv::a1', 'The Kinks');
  const faceToFace = albumSeen('mediaserver', 'mediaserver::srv::b1', 'Face to Face', kinks, { year: 1966, genres: ['Rock'], cover_url: 'https://img.example/face.jpg' });
  const village = albumSeen('mediaserver', 'mediaserver::srv::b2', 'The Village Green Preservation Society', kinks, { year: 1968, genres: ['Rock', 'Baroque Pop'], cover_url: 'https://img.example/village.jpg' });

  const sync = (items: MirrorItem[]) =>
    unitOfWork(app.ctx.readModels, () => app.ctx.store.append(mediaserverSectionStream('srv', '1'), [toNewEvent({ type: 'MediaserverItemsSynced', data: { server_id: 'srv', section_id: '1', items, at } } as never, { actor: null })], 'any'), { reactions: false });

  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    ids.artist = await reconcile(app.ctx, kinks);
    ids.faceToFace = await reconcile(app.ctx, faceToFace);
    ids.village = await reconcile(app.ctx, village);
    ids.sunset = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t1', 'Waterloo Sunset', kinks, faceToFace, { genres: ['Rock', 'British-Invasion'] }));
    ids.sunny = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t2', 'Sunny Afternoon', kinks, faceToFace));
    ids.lola = await reconcile(app.ctx, trackSeen('scrobbler', 'the kinks::lola', 'Lola', kinks, village, { tags: ['Glam'] }));
    const scrobbled = await reconcile(app.ctx, trackSeen('scrobbler', 'the kinks::waterloo sunset', 'Waterloo Sunset', kinks, faceToFace, { tags: ['british invasion', 'Baroque  Pop', 'Rock'] }));
    expect(scrobbled).to.equal(ids.sunset);
    await sync([mirrored('t1', media('FLAC', 24, 96000, true)), mirrored('t2', media('mp3', null, 44100, false))]);
  });
  after(() => app.close());

  async function run(path: string) {
    const res = await admin.post(`/admin/canonical/enrich/${path}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return pollTask(admin, res.body.task_id, undefined, 30_000);
  }
  const track = async (id: string) => (await admin.get(`/tracks/${id}`)).body;
  const coverage = async (path: string) => (await admin.get(`/admin/canonical/enrich/${path}-coverage`)).body;

  it('given two mirrored files, when audio-quality runs one item at a time, then the batch stops at its limit and the drain finishes the rest', async () => {
    expect(await coverage('audio-quality')).to.deep.equal({ total: 3, eligible: 2, done: 0, lossless: 0, backlog: 2, errors: 0 });
    const first = await run('audio-quality?limit=1');
    expect(first.summary).to.include({ processed: 1, finished: false });
    const rest = await run('audio-quality?drain=true');
    expect(rest.summary).to.include({ processed: 1, finished: true, started_after: first.summary!.cursor });
    expect((await track(ids.sunset)).audio_quality).to.deep.equal({ codec: 'flac', bit_depth: 24, sample_rate: 96000, lossless: true });
    expect((await track(ids.sunny)).audio_quality).to.deep.equal({ codec: 'mp3', bit_depth: null, sample_rate: 44100, lossless: false });
    expect(await coverage('audio-quality')).to.deep.equal({ total: 3, eligible: 2, done: 2, lossless: 1, backlog: 0, errors: 0 });
    expect((await run('audio-quality')).summary).to.include({ processed: 0 });
  });

  it('given a re-synced file of another quality, then the track is back in the backlog and takes the new quality', async () => {
    await sync([mirrored('t2', media('alac', 16, 44100, true))]);
    expect(await coverage('audio-quality')).to.include({ done: 1, backlog: 1 });
    expect((await run('audio-quality')).summary).to.include({ processed: 1 });
    expect((await track(ids.sunny)).audio_quality).to.deep.equal({ codec: 'alac', bit_depth: 16, sample_rate: 44100, lossless: true });
    const history = (await admin.get(`/tracks/${ids.sunny}/history`)).body as { type: string; data: { source: string; ref: unknown } }[];
    expect(history.filter((h) => h.type === 'EntityEnriched').map((h) => h.data.ref)).to.deep.equal([
      { source: 'mediaserver', external_id: 'mediaserver::srv::t2' },
      { source: 'mediaserver', external_id: 'mediaserver::srv::t2' },
    ]);
  });

  it('given tags from the media server and the scrobbler, when tags runs, then the doc has them folded, counted across sources, most named first', async () => {
    const before = await coverage('tags');
    expect(before.tracks).to.include({ total: 3, done: 0, backlog: 3 });
    expect(before.albums).to.include({ total: 2, backlog: 2 });
    expect((await run('tags')).summary).to.include({ processed: 5, failed: 0 });
    const sunset = await track(ids.sunset);
    expect(sunset.tags).to.deep.equal(['british invasion', 'rock', 'baroque pop']);
    expect(sunset).to.include.keys('moods', 'styles');
    expect((await admin.get(`/albums/${ids.village}`)).body.tags).to.deep.equal(['baroque pop', 'rock']);
    const after = await coverage('tags');
    expect(after.tracks).to.include({ done: 3, with_tags: 2, backlog: 0 });
    expect(after.errors).to.equal(0);
  });

  it('given a source that reports new tags, then the entity is unified again', async () => {
    await reconcile(app.ctx, trackSeen('scrobbler', 'the kinks::lola', 'Lola', kinks, village, { tags: ['Glam', 'glam rock'] }));
    expect((await coverage('tags')).tracks).to.include({ backlog: 1 });
    expect((await run('tags')).summary).to.include({ processed: 1 });
    expect((await track(ids.lola)).tags).to.deep.equal(['glam', 'glam rock']);
  });

  it('given an artist with two albums, when artist-reproject runs, then the doc counts them, spans their years, takes their genres and the newest cover', async () => {
    expect(await coverage('artist-reproject')).to.deep.equal({ total: 1, eligible: 1, done: 0, with_albums: 0, backlog: 1, errors: 0 });
    expect((await run('artist-reproject')).summary).to.include({ processed: 1 });
    const artist = (await admin.get(`/artists/${ids.artist}`)).body;
    expect(artist.discography).to.deep.equal({ albums: 2, tracks: 3, first_year: 1966, last_year: 1968 });
    expect(artist.genres).to.include.members(['rock', 'baroque pop']);
    expect(artist.picture).to.equal('https://img.example/village.jpg');
    expect(await coverage('artist-reproject')).to.deep.equal({ total: 1, eligible: 1, done: 1, with_albums: 1, backlog: 0, errors: 0 });
  });

  it('given a new track of the artist, then the artist is back in the backlog', async () => {
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t3', 'Dead End Street', kinks, faceToFace));
    expect(await coverage('artist-reproject')).to.include({ backlog: 1 });
    expect((await run('artist-reproject')).summary).to.include({ processed: 1 });
    expect((await admin.get(`/artists/${ids.artist}`)).body.discography).to.include({ tracks: 4 });
  });

  it('rebuilds the same docs from the log alone', async () => {
    const all = () => Promise.all([admin.get(`/artists/${ids.artist}`), admin.get(`/albums/${ids.village}`), admin.get(`/tracks/${ids.sunset}`), admin.get(`/tracks/${ids.sunny}`)]);
    const strip = (r: { body: Record<string, unknown> }) => ({ ...r.body, updated_at: undefined, created_at: undefined });
    const before = (await all()).map(strip);
    const res = await admin.post('/admin/canonical/rebuild');
    expect((await pollTask(admin, res.body.task_id, undefined, 30_000)).status).to.equal('completed');
    expect((await all()).map(strip)).to.deep.equal(before);
  });
});
