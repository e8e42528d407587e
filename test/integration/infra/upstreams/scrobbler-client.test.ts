import { expect } from 'chai';
import { createScrobblerClient, type ScrobblerClient } from '../../../../infra/upstreams/scrobbler/client.ts';
import { ScrobblerFailure } from '../../../../infra/upstreams/scrobbler/errors.ts';
import { apiSignature } from '../../../../infra/upstreams/scrobbler/signature.ts';
import { NotConfigured, UpstreamNotFound } from '../../../../shared/errors.ts';
import { FAKE_API_KEY, FAKE_SECRET, type ScrobblerFake, generatedHistory, listHistory, startScrobblerFake } from '../../../fakes/scrobbler/server.ts';

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('scrobbler client against the fake', () => {
  let fake: ScrobblerFake;
  let client: ScrobblerClient;

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser('RJ', listHistory([{ uts: 1603186824, artist: 'Tame Impala', album: 'Lonerism', track: 'Endors Toi' }]), { artist: 'Tame Impala', track: 'Apocalypse Dreams' });
    fake.state.addUser('million', generatedHistory({ count: 1_000_000 }));
    client = createScrobblerClient({ apiUrl: `${fake.url}/2.0`, authUrl: `${fake.url}/api/auth`, apiKey: FAKE_API_KEY, secret: FAKE_SECRET, backoffBaseMs: 40 });
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.state.errors.length = 0;
  });
  after(() => fake.close());

  it('given an authorized token, when the session is asked for, then a signed POST returns the session key', async () => {
    const token = fake.state.newToken();
    fake.state.tokens.set(token, 'RJ');
    const session = await client.getSession(token);
    expect(session.name).to.equal('RJ');
    expect(session.key).to.have.length(32);
    const [sent] = fake.requests;
    expect(sent!.method).to.equal('POST');
    const { api_sig: sig, format, ...signedParams } = sent!.body as Record<string, string>;
    expect(format).to.equal('json');
    expect(signedParams).to.deep.equal({ token, method: 'auth.getSession', api_key: FAKE_API_KEY });
    expect(sig).to.equal(apiSignature(signedParams, FAKE_SECRET));
  });

  it('when the token was never issued, then the refusal (4) is not retried', async () => {
    const error = await caught(client.getSession('nope'));
    expect(error).to.be.instanceOf(ScrobblerFailure).and.include({ code: 4, authRejected: true });
    expect(fake.requests).to.have.length(1);
  });

  it('reads a page, skipping the now-playing row, with method, api_key, format and limit 200', async () => {
    const page = await client.recentTracks('RJ', { page: 1 });
    expect(page.nowPlaying).to.deep.equal({ artist: 'Tame Impala', track: 'Apocalypse Dreams' });
    expect(page.scrobbles.map((s) => s.track)).to.deep.equal(['Endors Toi']);
    expect(fake.requests[0]!.query).to.include({ method: 'user.getRecentTracks', user: 'RJ', api_key: FAKE_API_KEY, format: 'json', limit: '200', page: '1' });
  });

  it('pages a generated million-scrobble history without materialising it', async () => {
    const first = await client.recentTracks('million', { page: 1 });
    expect(first).to.include({ total: 1_000_000, totalPages: 5000 });
    const last = await client.recentTracks('million', { page: 5000 });
    expect(last.scrobbles).to.have.length(200);
    expect(last.scrobbles[199]!.uts).to.equal(1_700_000_000 - 999_999 * 180);
    const bounded = await client.recentTracks('million', { page: 1, to: 1_700_000_000 - 180 * 10 });
    expect(bounded.total).to.equal(999_990);
    expect(bounded.scrobbles[0]!.uts).to.equal(1_700_000_000 - 180 * 10);
  });

  it('backs off and retries on 29 (rate limit), then answers', async () => {
    fake.state.inject({ code: 29, times: 2, status: 429 });
    const page = await client.recentTracks('RJ', { page: 1 });
    expect(page.scrobbles).to.have.length(1);
    expect(fake.requests).to.have.length(3);
    // Lower bounds only: a loaded machine can stretch a wait, never shorten it.
    expect(fake.requests[1]!.at - fake.requests[0]!.at).to.be.at.least(0.75 * 40 - 2);
    expect(fake.requests[2]!.at - fake.requests[1]!.at).to.be.at.least(1.5 * 40 - 2);
  });

  it('gives up after its attempts on a transient code that persists', async () => {
    fake.state.inject({ code: 16, times: 10 });
    const error = await caught(client.recentTracks('RJ', { page: 1 }));
    expect(error).to.be.instanceOf(ScrobblerFailure).and.include({ code: 16, status: 502 });
    expect(fake.requests).to.have.length(4);
  });

  it('tells an unknown user (nothing there) from a failure, and does not retry it', async () => {
    const error = await caught(client.recentTracks('nobody', { page: 1 }));
    expect(error).to.be.instanceOf(UpstreamNotFound);
    expect(fake.requests).to.have.length(1);
  });

  it('is not configured without a key', async () => {
    const bare = createScrobblerClient({ apiUrl: `${fake.url}/2.0`, authUrl: `${fake.url}/api/auth`, apiKey: undefined, secret: undefined });
    expect(bare.configured).to.equal(false);
    expect(await caught(bare.recentTracks('RJ', { page: 1 }))).to.be.instanceOf(NotConfigured);
  });
});
