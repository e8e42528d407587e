import { expect } from 'chai';
import { composeFromFacts, enrichedKey, factsKey, withEnriched, withLinked, withObserved, withoutRef } from '../../../../shared/canonical/doc-facts.ts';

const mb = factsKey('metabase', 'mb-1');
const layer = enrichedKey('metabase', mb);

describe('canonical docs: enriched facts', () => {
  it('compose with the priority of their source, without counting as a linked source', () => {
    let facts = withObserved(withLinked({}, factsKey('scrobbler', 'abba')), factsKey('scrobbler', 'abba'), { name: 'abba', alt_names: ['ABBA!'] });
    facts = withEnriched(facts, layer, { name: 'ABBA', alt_names: ['Abba', 'ABBA!', 'Björn & Benny'], external_links: [] });
    const doc = composeFromFacts(facts);
    expect(doc.name).to.equal('ABBA');
    expect(doc.alt_names).to.deep.equal(['Björn & Benny']);
    expect(doc.external_links).to.deep.equal([]);
    expect(doc.sources.metabase).to.equal(false);
    expect(doc.source_count).to.equal(1);
  });

  it('add to a layer field by field', () => {
    const facts = withEnriched(withEnriched({}, layer, { alt_names: ['A'], external_links: [] }), layer, { members: [] });
    expect(facts[layer]).to.deep.equal({ alt_names: ['A'], external_links: [], members: [] });
  });

  it('leave with the ref they were read from; stand-alone ones stay', () => {
    const alone = enrichedKey('lyrics', null);
    let facts = withLinked({}, mb);
    facts = withEnriched(withEnriched(facts, layer, { alt_names: ['A'] }), alone, { tags: ['x'] });
    expect(Object.keys(withoutRef(facts, mb))).to.deep.equal([alone]);
    expect(composeFromFacts(withoutRef(facts, mb)).tags).to.deep.equal(['x']);
  });
});
