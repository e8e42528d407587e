import { expect } from 'chai';
import { artistFacts, artistRelationFacts, creditFacts, recordingFacts, releaseFacts, releaseGroupFacts, worksOf } from '../../../../command/enrichment/metabase-facts.ts';
import { fixtureJson } from '../../../fakes/harness.ts';
import { artistRel, urlRel, work } from '../../../fakes/metabase/builders.ts';

const fixture = (file: string) => fixtureJson<Record<string, unknown>>('musicbrainz', file);

describe('metabase facts', () => {
  it('reads an artist’s aliases as other names', () => {
    const facts = artistFacts(fixture('ws2.artist.json'));
    expect(facts).to.include({ name: 'Ed Sheeran', mbid: 'b8a7c51f-362c-4dcb-a259-bc6e0095f0a6' });
    expect(facts.alt_names).to.deep.equal(['Shearan', 'Ed Sheeran (en)', 'Ed Sheeran (en_CA)']);
  });

  it('reads a release group as the album, and a release as its group’s types, without ids that match albums', () => {
    expect(releaseGroupFacts(fixture('ws2.release-group.inc-releases.json'))).to.deep.include({ name: 'The Dark Side of the Moon', year: 1973, primary_type: 'Album', secondary_types: [] });
    expect(releaseFacts(fixture('ws2.release.multidisc.json'))).to.deep.equal({ primary_type: 'Single', secondary_types: [] });
  });

  it('reads a recording’s title and length (never an ISRC: the track’s own matches it), and its works', () => {
    const recording = fixture('ws2.recording.inc-isrcs-rels.json');
    expect(recordingFacts(recording)).to.include({ name: 'Thinking Out Loud', duration_ms: recording.length as number });
    expect(recordingFacts(recording)).to.not.have.property('isrc');
    expect(worksOf(recording)).to.deep.equal([{ id: 'dc469dc8-198e-42e5-b5a7-6be2f0a95ac0', title: 'Thinking Out Loud' }]);
  });

  it('sorts links by category and ties by direction and type', () => {
    const member = { id: 'm', name: 'Member' };
    const facts = artistRelationFacts({
      relations: [urlRel('official homepage', 'https://a/'), urlRel('free streaming', 'https://b/'), urlRel('discogs', 'https://c/'),
        artistRel('member of band', 'backward', member), artistRel('member of band', 'forward', { id: 'g', name: 'Group' }), artistRel('sibling', 'forward', { id: 's', name: 'Sibling' }), artistRel('teacher', 'forward', { id: 't', name: 'Teacher' })],
    });
    expect(facts.external_links!.map((l) => l.category)).to.deep.equal(['official_site', 'streaming', 'other']);
    expect(facts.members!.map((m) => m.name)).to.deep.equal(['Member']);
    expect(facts.member_of!.map((m) => m.name)).to.deep.equal(['Group']);
    expect(facts.affiliations!.map((a) => [a.name, a.relation])).to.deep.equal([['Sibling', 'family']]);
  });

  it('credits each person once per role across works', () => {
    const p = { id: 'p', name: 'Pat' };
    const facts = creditFacts([work({ title: 'A', composers: [p], writers: [p] }), work({ title: 'B', composers: [p], lyricists: [{ id: 'q', name: 'Quinn' }] })]);
    expect(facts.credits).to.deep.equal({
      composer: [{ name: 'Pat', mbid: 'p', work: 'A' }],
      lyricist: [{ name: 'Quinn', mbid: 'q', work: 'B' }],
      writer: [{ name: 'Pat', mbid: 'p', work: 'A' }],
    });
  });
});
