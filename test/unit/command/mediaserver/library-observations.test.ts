import { expect } from 'chai';
import { fixtureJson } from '../../../fakes/harness.ts';
import { factsOf, isLossless, mediaOf, mirrorItemOf } from '../../../../command/mediaserver/library-observations.ts';
import { Container, type Item } from '../../../../infra/upstreams/mediaserver/schemas.ts';

const items = (file: string): Item[] => Container.parse(fixtureJson('plex', file)).MediaContainer.Metadata;

describe('mediaserver library observations', () => {
  const [track] = items('pms.library.metadata.157.children-album-tracks.json');
  const [album] = items('pms.library.sections.5.all.type9-artist.id.json');
  const [artist] = items('pms.library.sections.5.all.type8-artists.json');

  it('takes a track’s facts with its parents as canonical ids and its audio quality', () => {
    expect(factsOf(track!, { artistId: 'AR', albumId: 'AL' })).to.deep.equal({
      name: 'Try It Out (Neon mix)',
      artist_id: 'AR',
      artist_name: 'Skrillex',
      album_id: 'AL',
      album_title: 'Try It Out',
      track_number: 1,
      disc: 1,
      duration_ms: 5491,
      audio_quality: { codec: 'aac', bit_depth: null, lossless: false },
    });
  });

  it('takes an album’s year and artist name, and an artist’s genres', () => {
    expect(factsOf(album!, { artistId: 'AR' })).to.deep.equal({ name: 'Try It Out', year: 2013, artist_id: 'AR', artist_name: 'Skrillex' });
    expect(factsOf(artist!)).to.deep.equal({ name: 'Skrillex', genres: ['Dubstep', 'Electronic'] });
  });

  it('mirrors a track with its part and the bit depth of its audio stream', () => {
    const flac = { ...track!, Media: [{ id: 1, audioCodec: 'FLAC', container: 'flac', bitrate: 900, Part: [{ id: 9, key: '/library/parts/9/1/file.flac', size: 5, Stream: [{ streamType: 2, codec: 'flac', bitDepth: 24, samplingRate: 96000 }] }] }] } as Item;
    expect(mediaOf(flac.Media[0])).to.deep.equal({
      codec: 'flac',
      container: 'flac',
      bit_depth: 24,
      sampling_rate: 96000,
      bitrate: 900,
      lossless: true,
      size: 5,
      part_id: 9,
      part_key: '/library/parts/9/1/file.flac',
    });
    const row = mirrorItemOf(track!, 'T1');
    expect(row).to.include({ rating_key: '158', kind: 'track', parent_rating_key: '157', grandparent_rating_key: '156', index: 1, disc: 1, updated_at: 1579520116, canonical_id: 'T1' });
    expect(row.media).to.include({ codec: 'aac', part_key: '/library/parts/151/1579520044/file.aac', lossless: false });
    expect(mirrorItemOf(album!).media).to.equal(null);
  });

  it('knows which codecs are lossless', () => {
    expect(['flac', 'ALAC', 'wav', 'aiff'].map(isLossless)).to.deep.equal([true, true, true, true]);
    expect(['mp3', 'aac', 'opus', 'vorbis', null].map(isLossless)).to.deep.equal([false, false, false, false, false]);
  });
});
