import { expect } from 'chai';
import { TOP_TAGS, foldTag, unifyTags } from '../../../../command/enrichment/tag-unifier.ts';
import { discographyFacts } from '../../../../command/enrichment/discography.ts';

describe('tag unifier', () => {
  it('folds case, accents, separators and runs of spaces into one spelling', () => {
    expect(['Post-Rock', 'post_rock', ' POST  rock ', 'post/rock'].map(foldTag)).to.deep.equal(['post rock', 'post rock', 'post rock', 'post rock']);
    expect(foldTag('Électro')).to.equal('electro');
  });

  it('given layers naming tags, then they are counted once per layer, most named first, ties by name', () => {
    const unified = unifyTags([{ genres: ['Rock', 'Jazz'] }, { tags: ['rock', 'ROCK', 'Blues'] }, { tags: ['blues'], moods: ['Calm'], styles: ['Bebop'] }]);
    expect(unified).to.deep.equal({ tags: ['blues', 'rock', 'jazz'], moods: ['calm'], styles: ['bebop'], unified_from: 8 });
  });

  it('keeps the top N only', () => {
    const many = Array.from({ length: TOP_TAGS + 5 }, (_, i) => `tag ${String(i).padStart(2, '0')}`);
    expect(unifyTags([{ tags: many }]).tags).to.have.length(TOP_TAGS);
  });

  it('given no tags anywhere, then it says so with empty lists', () => {
    expect(unifyTags([{ name: 'x' }])).to.deep.equal({ tags: [], moods: [], styles: [], unified_from: 0 });
  });
});

describe('artist discography', () => {
  it('counts albums and tracks, spans the known years, ranks the albums’ genres and takes the newest cover', () => {
    const facts = discographyFacts([
      { year: 1970, genres: ['Rock'], cover_url: 'old.jpg' },
      { year: null, genres: ['rock', 'Folk'], cover_url: null },
      { year: 1975, genres: ['Folk', 'rock'], cover_url: 'new.jpg' },
    ], 30);
    expect(facts).to.deep.equal({ discography: { albums: 3, tracks: 30, first_year: 1970, last_year: 1975 }, genres: ['rock', 'folk'], cover_url: 'new.jpg' });
  });

  it('given no albums, then the counts are zero, the years null and no picture is offered', () => {
    expect(discographyFacts([], 0)).to.deep.equal({ discography: { albums: 0, tracks: 0, first_year: null, last_year: null }, genres: [] });
  });
});
