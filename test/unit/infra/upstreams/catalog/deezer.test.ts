import { expect } from 'chai';
import { classifyError, describeError } from '../../../../../infra/upstreams/catalog/deezer.ts';
import { CatalogAlbum, CatalogArtist, CatalogErrorEnvelope, CatalogPage, CatalogTrack } from '../../../../../infra/upstreams/catalog/schemas.ts';
import { fixtureJson } from '../../../../fakes/harness.ts';

const recorded = (file: string) => fixtureJson('deezer', file);

describe('catalog protocol', () => {
  describe('error envelope', () => {
    it('"no data" (800) means nothing there', () => {
      const { error } = CatalogErrorEnvelope.parse(recorded('error.track-not-found.json'));
      expect(classifyError(error)).to.equal('not_found');
    });

    it('quota (4) and busy (700) are faults worth another attempt', () => {
      expect(classifyError({ type: 'Exception', message: 'Quota limit exceeded', code: 4 })).to.equal('retryable');
      expect(classifyError({ type: 'Exception', message: 'Service busy', code: 700 })).to.equal('retryable');
    });

    it('a parameter error, or an exception without a code, is a plain fault', () => {
      const { error } = CatalogErrorEnvelope.parse(recorded('error.genre-wrong-parameter.json'));
      expect(classifyError(error)).to.equal('fault');
      expect(classifyError({ type: 'Exception', message: 'An active access token must be used' })).to.equal('fault');
      expect(describeError(error)).to.equal('error 500 (ParameterException: Wrong parameter)');
    });

    it('a payload is never mistaken for an error envelope', () => {
      for (const file of ['artist.27.json', 'album.302127.json', 'track.3135556.json', 'album.302127.tracks.json']) {
        expect(CatalogErrorEnvelope.safeParse(recorded(file)).success, file).to.equal(false);
      }
    });
  });

  describe('payload schemas accept every recorded answer', () => {
    const cases: [string, { safeParse(v: unknown): { success: boolean } }][] = [
      ['artist.27.json', CatalogArtist],
      ['artist.27.related.json', CatalogPage(CatalogArtist)],
      ['search.artist.q-michael-jackson.json', CatalogPage(CatalogArtist)],
      ['album.302127.json', CatalogAlbum],
      ['album.629506181.json', CatalogAlbum],
      ['album.302127.tracks.json', CatalogPage(CatalogTrack)],
      ['album.302127.tracks.index14-empty-page.json', CatalogPage(CatalogTrack)],
      ['track.3135556.json', CatalogTrack],
      ['track.2947516331.json', CatalogTrack],
      ['search.q-billy-jean.index1-limit4.json', CatalogPage(CatalogTrack)],
    ];
    for (const [file, schema] of cases) {
      it(file, () => expect(schema.safeParse(recorded(file)).success).to.equal(true));
    }
  });
});
