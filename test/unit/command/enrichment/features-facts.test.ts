import { expect } from 'chai';
import { featureDataOf } from '../../../../command/enrichment/features-facts.ts';
import { HighLevelDoc, LowLevelDoc } from '../../../../infra/upstreams/features/schemas.ts';
import { fixtureJson } from '../../../fakes/harness.ts';

const lowlevel = LowLevelDoc.parse(fixtureJson('acousticbrainz', 'api.v1.0dad432b.low-level.trimmed.json'));
const highlevel = HighLevelDoc.parse(fixtureJson('acousticbrainz', 'api.v1.0dad432b.high-level.json'));

describe('feature data from the features database’s documents', () => {
  it('given both documents, then tempo, key, each mood’s probability and the genres are kept, rounded', () => {
    const data = featureDataOf({ lowlevel, highlevel });
    expect(data).to.deep.equal({
      bpm: 139.9,
      key: 'D major',
      moods: { acoustic: 0.9884, aggressive: 0.05, electronic: 0.0249, happy: 0.0581, party: 0.0156, relaxed: 0.9952, sad: 0.9532 },
      genres: { pop: 0.0338, jazz: 0.114, rock: 0.0465, blues: 0.0926, raphiphop: 0.0032, electronic: 0.0783, alternative: 0.1167, folkcountry: 0.5091, funksoulrnb: 0.0057 },
    });
  });

  it('given a low-level row with a key and no scale or tempo, and no high-level, then the key alone', () => {
    const bulk = fixtureJson<Record<string, Record<string, unknown>>>('acousticbrainz', 'api.v1.low-level.bulk.recording_ids-features.json');
    const row = LowLevelDoc.parse(bulk['e8afe383-1478-497e-90b1-7885c7f37f6e']!['0']);
    expect(featureDataOf({ lowlevel: row, highlevel: null })).to.deep.equal({ bpm: null, key: 'D', moods: {}, genres: {} });
  });

  it('given no recording, or documents with nothing usable, then none (null)', () => {
    expect(featureDataOf(undefined)).to.equal(null);
    expect(featureDataOf({ lowlevel: LowLevelDoc.parse({ lowlevel: {} }), highlevel: null })).to.equal(null);
  });
});
