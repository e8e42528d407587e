import { expect } from 'chai';
import { withoutSecrets } from '../../../../command/monitor/raw-fields.ts';

describe('raw fields of a delivery', () => {
  it('keeps every field but secrets: secret-named keys at any depth, secret URL parameters, the intake secret', () => {
    const raw = {
      event: 'play',
      Token: 'x',
      list: [{ apiKey: 'k', keep: 1 }, 'plain', `has s3cret-intake-value inside`],
      Player: { title: 'Web', publicAddress: '200.200.200.200' },
      url: 'https://host/a?api_key=abc&size=2#frag',
      other: 'https://host/b?X-Plex-Token=zzz',
      count: 3,
      nothing: null,
    };
    expect(withoutSecrets(raw, 's3cret-intake-value')).to.deep.equal({
      event: 'play',
      list: [{ keep: 1 }, 'plain', '[redacted]'],
      Player: { title: 'Web', publicAddress: '200.200.200.200' },
      url: 'https://host/a?api_key=[redacted]&size=2#frag',
      other: 'https://host/b?X-Plex-Token=[redacted]',
      count: 3,
      nothing: null,
    });
  });
});
