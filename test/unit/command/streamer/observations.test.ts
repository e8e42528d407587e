import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { albumObservation, isTrack, mirrorTrack, trackObservation } from '../../../../command/streamer/observations.ts';
import { SavedAlbum, SavedTrack, paging } from '../../../../infra/upstreams/streamer/schemas.ts';

const recorded = (file: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../fixtures/upstream/spotify', file), 'utf8'));

describe('streamer observations', () => {
  const saved = paging(SavedTrack).parse(recorded('me.tracks.json')).items[0]!;
  const album = paging(SavedAlbum).parse(recorded('me.albums.limit1.json')).items[0]!.album;

  it('observes a recorded saved track with its ISRC, artist and album under the API ids', () => {
    if (!isTrack(saved.track)) throw new Error('the recording holds a track');
    const obs = trackObservation(saved.track, new Map());
    expect(obs).to.deep.include({ source: 'streamer', kind: 'track', external_id: '2jpDioAB9tlYXMdXDK3BGl' });
    expect(obs.facts).to.deep.equal({ name: 'Good Enough For Granddad', isrc: 'USMA20215185', duration_ms: 137040, disc: 1, track_number: 1 });
    expect(obs.artist).to.deep.equal({ source: 'streamer', kind: 'artist', external_id: '0LIll5i3kwo5A3IDpipgkS', facts: { name: 'Squirrel Nut Zippers' } });
    expect(obs.album?.external_id).to.equal('63GBbuUNBel2ovJjUrfh5r');
    expect(mirrorTrack(saved.track, 'T1')).to.include({ track_id: '2jpDioAB9tlYXMdXDK3BGl', isrc: 'USMA20215185', canonical_track_id: 'T1' });
  });

  it('observes an album embedded in a track with the UPC its saved form gave, so both observations agree', () => {
    const upcs = new Map([[album.id!, album.external_ids!.upc!]]);
    const asSaved = albumObservation(album, upcs)!;
    expect(asSaved.facts).to.include({ name: 'In & ut', upc: '00602537623730', year: 2013 });
    const embedded = { ...album, external_ids: undefined };
    expect(albumObservation(embedded, upcs)).to.deep.equal(asSaved);
  });
});
