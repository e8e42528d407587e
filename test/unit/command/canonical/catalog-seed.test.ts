import { expect } from 'chai';
import { onAlbum } from '../../../../command/canonical/catalog-seed.ts';
import { albumWithTracksObservations } from '../../../../command/canonical/catalog-observations.ts';
import { CatalogAlbum, CatalogArtist, CatalogPage, CatalogTrack } from '../../../../infra/upstreams/catalog/schemas.ts';
import { fixtureJson } from '../../../fakes/harness.ts';

describe('catalog seeding: tracklist rows placed on their album', () => {
  const album = CatalogAlbum.parse(fixtureJson('deezer', 'album.302127.json'));
  const rows = CatalogPage(CatalogTrack).parse(fixtureJson('deezer', 'album.302127.tracks.json')).data;
  const guest = CatalogArtist.parse({ id: 6404, name: 'Justice' });
  const observed = albumWithTracksObservations({ album, tracks: [...rows, { ...rows[0]!, id: 1, artist: guest }] });
  const placed = { artistId: 'ARTIST', albumId: 'ALBUM', artist: observed.album.artist!, album: observed.album };

  it("a row by the album's artist names artist and album by canonical id, with no nested observations", () => {
    const track = onAlbum(observed.tracks[0]!, placed);
    expect(track).to.not.have.any.keys('artist', 'album');
    expect(track.facts).to.include({ name: 'One More Time', artist_id: 'ARTIST', artist_name: 'Daft Punk', album_id: 'ALBUM', album_title: 'Discovery' });
  });

  it("a guest artist's row is left for the reconciler to place", () => {
    const track = observed.tracks.at(-1)!;
    expect(onAlbum(track, placed)).to.equal(track);
    expect(track.artist).to.deep.include({ external_id: '6404' });
  });
});
