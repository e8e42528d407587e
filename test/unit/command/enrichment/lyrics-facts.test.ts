import { expect } from 'chai';
import { lyricsOf } from '../../../../command/enrichment/lyrics-facts.ts';
import { fixtureJson } from '../../../fakes/harness.ts';
import { LyricsRecord } from '../../../../infra/upstreams/lyrics/schemas.ts';

const recorded = (file: string) => LyricsRecord.parse(fixtureJson('lrclib', file));

describe('lyrics facts from the provider’s record', () => {
  it('given the recorded record, then plain text and synced lines', () => {
    const lyrics = lyricsOf(recorded('api.get.found.json'));
    expect(lyrics.state).to.equal('found');
    expect(lyrics.plain?.split('\n')).to.have.length(4);
    expect(lyrics.synced).to.have.length(6);
  });

  it('given an instrumental, then instrumental without text', () => {
    expect(lyricsOf(recorded('api.get.instrumental.navidrome-edited.json'))).to.deep.equal({ state: 'instrumental', plain: null, synced: null });
  });

  it('given no record, or one with neither text, then not_found', () => {
    expect(lyricsOf(null).state).to.equal('not_found');
    expect(lyricsOf({ id: 1, trackName: 't', artistName: 'a', instrumental: false, plainLyrics: null, syncedLyrics: ' ' }).state).to.equal('not_found');
  });

  it('given synced text only, then the plain text is its lines', () => {
    expect(lyricsOf({ id: 1, trackName: 't', artistName: 'a', instrumental: false, plainLyrics: null, syncedLyrics: '[00:01.00]one\n[00:02.00]two' }).plain).to.equal('one\ntwo');
  });
});
