import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';

const SECRET = 'monitor-intake-secret-for-tests';
const RECORDED_PLAY = readFileSync(new URL('../../fixtures/upstream/plex-webhooks/media.play.track.payload.json', import.meta.url), 'utf8');
/** A JPEG's first bytes: the media server attaches a thumbnail part to some events. */
const THUMB = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

/** The media server's delivery: a multipart form with the JSON in `payload`, sometimes a thumbnail. */
function mediaserverForm(payload: string, thumb = false): FormData {
  const form = new FormData();
  form.append('payload', payload);
  if (thumb) form.append('thumb', new Blob([THUMB], { type: 'image/jpeg' }), 'thumb.jpg');
  return form;
}

describe('monitor intake (POST /monitor/webhooks/mediaserver, POST /monitor/webhooks/monitor)', () => {
  let app: TestApp;
  let admin: ApiClient;
  const post = (path: string, body: FormData | string, headers: Record<string, string> = {}) => fetch(app.url + path, { method: 'POST', body, headers });
  const json = async (res: Response): Promise<any> => res.json();
  const postJson = (body: unknown, query = `?token=${SECRET}`, headers: Record<string, string> = {}) =>
    post(`/monitor/webhooks/monitor${query}`, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
  const events = async (query = '') => (await admin.get(`/admin/monitor/events${query}`)).body;

  before(async () => {
    app = await startTestApp({ MONITOR_WEBHOOK_SECRET: SECRET });
    admin = await signedInAdmin(app);
  });
  after(() => app.close());

  it("records the media server's recorded webhook, posted as its multipart form with a thumbnail, the secret in the URL", async () => {
    const res = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, mediaserverForm(RECORDED_PLAY, true));
    expect(res.status).to.equal(200);
    const answer = await json(res);
    expect(answer.duplicate).to.equal(false);
    const { items } = await events('?event=media.play');
    expect(items).to.have.length(1);
    expect(items[0]).to.deep.include({
      monitor_event_id: answer.monitor_event_id,
      source: 'mediaserver',
      delivery_id: null,
      event: 'media.play',
      category: 'playback',
      media_type: 'track',
      user: 'elan',
      title: "Love The One You're With",
      artist: 'Stephen Stills',
      album: 'Stephen Stills',
      server: 'Office',
      player: 'Plex Web (Safari)',
    });
    expect(items[0].raw).to.deep.equal(JSON.parse(RECORDED_PLAY));
  });

  it('takes the secret in the X-Monitor-Token header too; each delivery without an id of its own is a new event', async () => {
    const again = await post('/monitor/webhooks/mediaserver', mediaserverForm(RECORDED_PLAY), { 'x-monitor-token': SECRET });
    expect(again.status).to.equal(200);
    expect((await json(again)).duplicate).to.equal(false);
    expect((await events('?event=media.play')).total).to.equal(2);
  });

  it('records a monitor delivery once, however often and however concurrently its id is delivered', async () => {
    const body = { id: 'play-42-1700000000', event: 'play', media_type: 'track', user: 'elan', title: 'Stephen Stills - Love The One You\'re With', server: 'Office', player: 'Living room' };
    const first = await postJson(body);
    expect(first.status).to.equal(200);
    const recorded = await json(first);
    expect(recorded.duplicate).to.equal(false);
    const repeats = await Promise.all([1, 2, 3, 4].map(() => postJson(body)));
    const answers = await Promise.all(repeats.map(json));
    expect(repeats.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    expect(answers).to.deep.equal(answers.map(() => ({ monitor_event_id: recorded.monitor_event_id, duplicate: true })));

    const racing = { ...body, id: 'stop-42-1700000300', event: 'stop' };
    const raced = await Promise.all([1, 2, 3, 4, 5].map(() => postJson(racing)));
    const raceAnswers = await Promise.all(raced.map(json));
    expect(raceAnswers.filter((a) => !a.duplicate)).to.have.length(1);
    expect((await events('?event=stop')).total).to.equal(1);
    expect((await events('?event=play')).items[0]).to.deep.include({ source: 'monitor', delivery_id: 'play-42-1700000000', category: 'playback', user: 'elan' });
  });

  it('refuses a missing or wrong secret with 401, before reading the body', async () => {
    const wrong = [
      await postJson({ event: 'play' }, ''),
      await postJson({ event: 'play' }, '?token=not-the-secret'),
      await postJson({ event: 'play' }, '', { 'x-monitor-token': `${SECRET}x` }),
      await post('/monitor/webhooks/mediaserver', mediaserverForm(RECORDED_PLAY)),
      await post('/monitor/webhooks/mediaserver?token=nope', 'not even a form', { 'content-type': 'text/plain' }),
    ];
    expect(wrong.map((r) => r.status)).to.deep.equal([401, 401, 401, 401, 401]);
    expect(await json(wrong[0]!)).to.have.property('detail').that.is.a('string');
  });

  it('refuses an oversized delivery with 413: a JSON body, a form, a payload field', async () => {
    const bigJson = await postJson({ event: 'play', title: 'x'.repeat(70 * 1024) });
    const bigForm = mediaserverForm(RECORDED_PLAY);
    bigForm.append('thumb', new Blob([new Uint8Array(1100 * 1024)], { type: 'image/jpeg' }), 'thumb.jpg');
    const bigFormRes = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, bigForm);
    const bigPayload = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, mediaserverForm(JSON.stringify({ event: 'media.play', pad: 'x'.repeat(70 * 1024) })));
    expect([bigJson.status, bigFormRes.status, bigPayload.status]).to.deep.equal([413, 413, 413]);
  });

  it('answers 415 to a media server delivery that is not a form, 422 to a payload that is not the webhook JSON', async () => {
    const asJson = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, JSON.stringify({ payload: RECORDED_PLAY }), { 'content-type': 'application/json' });
    expect(asJson.status).to.equal(415);
    const notJson = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, mediaserverForm('{"event": '));
    expect(notJson.status).to.equal(422);
    expect((await json(notJson)).detail[0].loc).to.deep.equal(['body', 'payload']);
    const noEvent = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, mediaserverForm('{"Account": {"title": "elan"}}'));
    expect(noEvent.status).to.equal(422);
    const nul = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, mediaserverForm('{"event": "media.play", "Account": {"title": "a\\u0000b"}}'));
    expect(nul.status).to.equal(422);
    const noPayload = await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, new FormData());
    expect(noPayload.status).to.equal(422);
    expect((await postJson({ title: 'no event' })).status).to.equal(422);
    expect((await postJson('[1, 2')).status).to.equal(422);
  });

  it('lets exactly the intake through without a session or a same-site Origin: every other write keeps the CSRF and JSON-only rules', async () => {
    const foreign = { origin: 'https://elsewhere.example' };
    expect((await postJson({ event: 'resume', id: 'resume-1' }, `?token=${SECRET}`, foreign)).status).to.equal(200);
    expect((await post(`/monitor/webhooks/mediaserver?token=${SECRET}`, mediaserverForm(RECORDED_PLAY), foreign)).status).to.equal(200);
    // The same requests elsewhere: a form is refused, a foreign Origin is refused, a token is no session.
    expect((await post(`/auth/login?token=${SECRET}`, mediaserverForm(RECORDED_PLAY))).status).to.equal(415);
    expect((await post('/auth/login', JSON.stringify({ username: 'admin', password: 'x' }), { 'content-type': 'application/json', ...foreign })).status).to.equal(403);
    expect((await post(`/admin/scrobbles/invalid/purge?token=${SECRET}`, JSON.stringify({ kind: 'all' }), { 'content-type': 'application/json', 'x-monitor-token': SECRET })).status).to.equal(401);
    expect((await fetch(`${app.url}/monitor/webhooks/monitor?token=${SECRET}`)).status).to.equal(405);
  });

  it('keeps the raw fields, never a secret: secret-named fields, secret URL parameters, the intake secret itself', async () => {
    const res = await postJson({
      id: 'secret-check',
      event: 'play',
      title: 'Track',
      token: 'a-sender-token',
      plex_token: 'another',
      nested: { api_key: 'k', password: 'p', note: `copied ${SECRET} here`, keep: 'me' },
      poster_url: 'https://media.example/photo/:/transcode?url=/library/1/thumb&X-Plex-Token=abcdef&width=300',
      year: 1970,
    });
    expect(res.status).to.equal(200);
    const item = (await events('?q=track&event=play')).items.find((e: { delivery_id: string }) => e.delivery_id === 'secret-check');
    expect(item.raw).to.deep.equal({
      id: 'secret-check',
      event: 'play',
      title: 'Track',
      nested: { note: '[redacted]', keep: 'me' },
      poster_url: 'https://media.example/photo/:/transcode?url=/library/1/thumb&X-Plex-Token=[redacted]&width=300',
      year: 1970,
    });
    const log = await app.ctx.db.selectFrom('events').select('data').where('event_type', '=', 'MonitorEventRecorded').execute();
    const text = JSON.stringify(log);
    for (const secret of [SECRET, 'a-sender-token', 'another', 'abcdef', '"k"', '"p"']) expect(text).not.to.include(secret);
  });

  it('is off while MONITOR_WEBHOOK_SECRET is unset: both addresses answer 404 as an unknown route does', async () => {
    const off = await startTestApp();
    try {
      const jsonRes = await fetch(`${off.url}/monitor/webhooks/monitor?token=${SECRET}`, { method: 'POST', body: '{"event":"play"}', headers: { 'content-type': 'application/json' } });
      const form = await fetch(`${off.url}/monitor/webhooks/mediaserver`, { method: 'POST', body: mediaserverForm(RECORDED_PLAY) });
      expect([jsonRes.status, form.status]).to.deep.equal([404, 404]);
      expect(await json(jsonRes)).to.deep.equal({ detail: 'Not Found' });
    } finally {
      await off.close();
    }
  });
});
