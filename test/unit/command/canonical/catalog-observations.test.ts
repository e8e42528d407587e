import { expect } from 'chai';
import {
  albumObservation,
  albumWithTracksObservations,
  artistObservation,
  releaseTypes,
  trackObservation,
  yearOf,
} from '../../../../command/canonical/catalog-observations.ts';
import { CatalogAlbum, CatalogArtist, CatalogPage, CatalogTrack } from '../../../../infra/upstreams/catalog/schemas.ts';
import { Facts } from '../../../../shared/events/canonical.events.ts';
import { fixtureJson } from '../../../fakes/harness.ts';

const recorded = (file: string) => fixtureJson('deezer', file);
const artist27 = () => CatalogArtist.parse(recorded('artist.27.json'));
const discovery = () => CatalogAlbum.parse(recorded('album.302127.json'));
const discoveryTracks = () => CatalogPage(CatalogTrack).parse(recorded('album.302127.tracks.json')).data;

describe('catalog payloads as observations', () => {
  it('an artist: its numeric id as the external id, its name and largest picture', () => {
    const obs = artistObservation(artist27());
    expect(obs).to.deep.equal({
      source: 'catalog',
      kind: 'artist',
      external_id: '27',
      facts: { name: 'Daft Punk', cover_url: 'https://e-cdns-images.dzcdn.net/images/artist/f2bc007e9133c946ac3c3907ddc5d2ea/1000x1000-000000-80-0-0.jpg' },
    });
  });

  it('an artist without an image: no cover from the placeholder URLs', () => {
    const hits = CatalogPage(CatalogArtist).parse(recorded('search.artist.q-michael-jackson.json')).data;
    const obs = artistObservation(hits.find((a) => a.id === 14031649)!);
    expect(obs.facts).to.deep.equal({ name: 'jay emcee, Micheal Jackson' });
  });

  it('an album: title, UPC, year, cover, genres, duration, release type and its artist', () => {
    const obs = albumObservation(discovery(), discovery().artist);
    expect(obs).to.deep.include({ source: 'catalog', kind: 'album', external_id: '302127' });
    expect(obs.facts).to.deep.equal({
      name: 'Discovery',
      upc: '724384960650',
      year: 2001,
      cover_url: 'https://cdns-images.dzcdn.net/images/cover/2e018122cb56986277102d2041a592c8/1000x1000-000000-80-0-0.jpg',
      genres: ['Dance'],
      duration_ms: 3_660_000,
      primary_type: 'Album',
    });
    expect(obs.artist).to.deep.include({ kind: 'artist', external_id: '27' });
  });

  it('a single is a Single and a compilation an Album with a Compilation secondary type', () => {
    const single = CatalogAlbum.parse(recorded('album.629506181.json'));
    expect(albumObservation(single, single.artist).facts).to.include({ primary_type: 'Single', upc: '602475093060', year: 2024 });
    expect(releaseTypes('compile')).to.deep.equal({ primary_type: 'Album', secondary_types: ['Compilation'] });
    expect(releaseTypes('something-new')).to.deep.equal({});
  });

  it('a track: ISRC, duration, preview, positions, catalog id, and its album and artist', () => {
    const obs = trackObservation(CatalogTrack.parse(recorded('track.3135556.json')));
    expect(obs).to.deep.include({ source: 'catalog', kind: 'track', external_id: '3135556' });
    expect(obs.facts).to.deep.equal({
      name: 'Harder Better Faster Stronger',
      isrc: 'GBDUW0000059',
      duration_ms: 224_000,
      preview_url: 'https://cdns-preview-d.dzcdn.net/stream/c-deda7fa9316d9e9e880d2c6207e92260-5.mp3',
      disc: 1,
      track_number: 4,
      catalog_id: '3135556',
      year: 2001,
      cover_url: 'https://e-cdns-images.dzcdn.net/images/cover/2e018122cb56986277102d2041a592c8/1000x1000-000000-80-0-0.jpg',
    });
    expect(obs.album).to.deep.include({ kind: 'album', external_id: '302127' });
    expect(obs.album!.facts).to.include({ name: 'Discovery', year: 2001 });
    expect(obs.album!.artist).to.deep.include({ external_id: '27' });
    expect(obs.artist).to.deep.include({ external_id: '27' });
  });

  it('an album with its tracklist: every track points at the album and keeps its position', () => {
    const { album, tracks } = albumWithTracksObservations({ album: discovery(), tracks: discoveryTracks() });
    expect(album.external_id).to.equal('302127');
    expect(tracks.map((t) => [t.external_id, t.facts.track_number, t.facts.isrc])).to.deep.equal([
      ['3135553', 1, 'GBDUW0000053'],
      ['3135554', 2, 'GBDUW0000057'],
      ['3135555', 3, 'GBDUW0000058'],
      ['3135556', 4, 'GBDUW0000059'],
      ['3135557', 5, 'GBDUW0000060'],
    ]);
    expect(tracks.every((t) => t.album === album)).to.equal(true);
    expect(tracks[0]!.facts).to.include({ year: 2001, catalog_id: '3135553' });
    // Tracklist rows name the artist bare; the album's payload of the same artist is used instead.
    expect(tracks.map((t) => t.artist!.facts)).to.deep.equal(tracks.map(() => album.artist!.facts));
    expect(album.artist!.facts.cover_url).to.match(/1000x1000/);
  });

  it('every observation carries facts the event schema accepts', () => {
    const observations = [
      artistObservation(artist27()),
      albumObservation(discovery(), discovery().artist),
      trackObservation(CatalogTrack.parse(recorded('track.2947516331.json'))),
      ...albumWithTracksObservations({ album: discovery(), tracks: discoveryTracks() }).tracks,
    ];
    for (const obs of observations) expect(Facts.safeParse(obs.facts).success, obs.external_id).to.equal(true);
  });

  it('a year from a release date, none from the unknown date', () => {
    expect(yearOf('2001-03-07')).to.equal(2001);
    expect(yearOf('0000-00-00')).to.equal(undefined);
    expect(yearOf(undefined)).to.equal(undefined);
  });
});
