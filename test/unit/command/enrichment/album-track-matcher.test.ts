import { expect } from 'chai';
import { matchAlbumTracks } from '../../../../command/enrichment/album-track-matcher.ts';

const t = (key: string, disc: number | null, track: number | null, title: string) => ({ key, disc, track, title });

describe('album track matcher', () => {
  const ours = [t('c1', 1, 1, 'One More Time'), t('c2', 1, 2, 'Aerodynamic'), t('c3', 2, 1, 'Digital Love')];

  it('pairs by disc and track when counts match and titles align, small title differences allowed', () => {
    const theirs = [t('s1', 1, 1, 'One More Time'), t('s2', 1, 2, 'Aerodynamic (Remastered)'), t('s3', 2, 1, 'Digital Love')];
    expect(matchAlbumTracks(ours, theirs, false)).to.deep.equal({
      outcome: 'matched',
      pairs: [{ canonical: 'c1', source: 's1', by: 'position' }, { canonical: 'c2', source: 's2', by: 'position' }, { canonical: 'c3', source: 's3', by: 'position' }],
    });
  });

  it('skips an album whose track or disc counts differ, or whose titles do not align', () => {
    expect(matchAlbumTracks(ours, ours.slice(0, 2), false)).to.include({ outcome: 'skipped', reason: '3 tracks here, 2 there' });
    expect(matchAlbumTracks(ours, [t('s1', 1, 1, 'One More Time'), t('s2', 1, 2, 'Aerodynamic'), t('s3', 1, 3, 'Digital Love')], false)).to.include({ reason: '2 discs here, 1 there' });
    const shuffled = [t('s1', 1, 1, 'Aerodynamic'), t('s2', 1, 2, 'One More Time'), t('s3', 2, 1, 'Digital Love')];
    expect(matchAlbumTracks(ours, shuffled, false)).to.deep.equal({ outcome: 'skipped', reason: 'titles do not align (1 of 3)', pairs: [] });
  });

  it('with the title fallback, pairs the tracks whose title is unique on both sides of a skipped album', () => {
    const theirs = [t('s1', 1, 1, 'One More Time'), t('s2', 1, 2, 'Digital Love'), t('s3', 1, 3, 'Digital Love'), t('s4', 1, 4, 'Aerodynamic')];
    const match = matchAlbumTracks(ours, theirs, true);
    expect(match.outcome).to.equal('skipped');
    expect(match.pairs).to.deep.equal([{ canonical: 'c1', source: 's1', by: 'title' }, { canonical: 'c2', source: 's4', by: 'title' }]);
  });
});
