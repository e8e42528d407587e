import { expect } from 'chai';
import { SERVICE_START_UTS, classifyScrobble } from '../../../../shared/scrobbles/invalid.ts';

describe('invalid scrobble classifier', () => {
  const importedAt = Date.UTC(2026, 0, 1);
  const nowUts = importedAt / 1000;

  it('buckets a zero timestamp, one before the service existed, and one more than a day ahead', () => {
    expect(classifyScrobble(0, importedAt)).to.equal('zero');
    expect(classifyScrobble(SERVICE_START_UTS - 1, importedAt)).to.equal('before_service');
    expect(classifyScrobble(-5, importedAt)).to.equal('before_service');
    expect(classifyScrobble(nowUts + 86_401, importedAt)).to.equal('future');
  });

  it('accepts the first second of 2002, now, and up to a day of clock skew', () => {
    expect(SERVICE_START_UTS).to.equal(1009843200);
    expect(classifyScrobble(SERVICE_START_UTS, importedAt)).to.equal(null);
    expect(classifyScrobble(nowUts, importedAt)).to.equal(null);
    expect(classifyScrobble(nowUts + 86_400, importedAt)).to.equal(null);
  });
});
