import { expect } from 'chai';
import { unitOfWork } from '../../../infra/projections/read-models.ts';
import type { MonitorEventFacts } from '../../../shared/events/monitor.events.ts';
import { monitorEventStream } from '../../../shared/streams.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';

const DAY = 86_400_000;
const none = { media_type: null, user: null, title: null, artist: null, album: null, server: null, player: null };

/** The log as the intake would have written it over the past weeks (the intake stamps events with their arrival). */
const HISTORY: { id: string; source: 'mediaserver' | 'monitor'; daysAgo: number; facts: MonitorEventFacts }[] = [
  { id: 'e6', source: 'monitor', daysAgo: 40, facts: { ...none, event: 'intdown', category: 'server', server: 'Office' } },
  { id: 'e5', source: 'mediaserver', daysAgo: 20, facts: { ...none, event: 'library.new', category: 'library', media_type: 'movie', title: 'Le Samouraï', server: 'Office' } },
  { id: 'e4', source: 'monitor', daysAgo: 5, facts: { ...none, event: 'created', category: 'library', media_type: 'album', title: 'Kind of Blue', artist: 'Miles Davis' } },
  { id: 'e2', source: 'monitor', daysAgo: 1.01, facts: { ...none, event: 'play', category: 'playback', media_type: 'track', user: 'anna', title: 'Blue in Green', artist: 'Miles Davis', album: 'Kind of Blue', player: 'Kitchen' } },
  { id: 'e3', source: 'monitor', daysAgo: 1, facts: { ...none, event: 'stop', category: 'playback', media_type: 'track', user: 'anna', title: 'Blue in Green', artist: 'Miles Davis', album: 'Kind of Blue', player: 'Kitchen' } },
  { id: 'e1', source: 'mediaserver', daysAgo: 0, facts: { ...none, event: 'media.play', category: 'playback', media_type: 'track', user: 'elan', title: "Love The One You're With", artist: 'Stephen Stills', server: 'Office', player: 'Web' } },
];
const NEWEST_FIRST = ['e1', 'e3', 'e2', 'e4', 'e5', 'e6'];

describe('monitor views (GET /admin/monitor/events, GET /admin/monitor/stats)', () => {
  let app: TestApp;
  let admin: ApiClient;
  const now = Date.now();
  const atOf = (id: string) => new Date(now - HISTORY.find((h) => h.id === id)!.daysAgo * DAY);
  const ids = async (query: string) => {
    const res = await admin.get(`/admin/monitor/events${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items.map((e: { monitor_event_id: string }) => e.monitor_event_id);
  };
  const stats = async (query: string) => {
    const res = await admin.get(`/admin/monitor/stats${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };

  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    await unitOfWork(
      app.ctx.readModels,
      async () => {
        for (const h of HISTORY) {
          const data = { monitor_event_id: h.id, source: h.source, delivery_id: null, ...h.facts, raw: { event: h.facts.event }, at: atOf(h.id).toISOString() };
          await app.ctx.store.append(monitorEventStream(h.id), [{ type: 'MonitorEventRecorded', data }], 'no_stream');
        }
      },
      { reactions: false },
    );
  });
  after(() => app.close());

  describe('the list', () => {
    it('lists every event newest first, fields and raw included, with the default page and limit', async () => {
      const res = await admin.get('/admin/monitor/events');
      expect(res.body.items.map((e: { monitor_event_id: string }) => e.monitor_event_id)).to.deep.equal(NEWEST_FIRST);
      expect(res.body).to.include({ total: 6, page: 1, limit: 50 });
      expect(res.body.items[0]).to.deep.equal({
        monitor_event_id: 'e1', source: 'mediaserver', delivery_id: null, event: 'media.play', category: 'playback', media_type: 'track', user: 'elan',
        title: "Love The One You're With", artist: 'Stephen Stills', album: null, server: 'Office', player: 'Web', received_at: atOf('e1').toISOString(), raw: { event: 'media.play' },
      });
    });

    it('always carries every distinct value of each filter, whatever the filters and the page', async () => {
      const filters = { event: ['created', 'intdown', 'library.new', 'media.play', 'play', 'stop'], category: ['library', 'playback', 'server'], media_type: ['album', 'movie', 'track'], user: ['anna', 'elan'] };
      for (const query of ['', '?user=anna&event=stop', '?page=9', '?q=nothing-matches', '?since_days=1']) {
        expect((await admin.get(`/admin/monitor/events${query}`)).body.filters, query).to.deep.equal(filters);
      }
    });

    it('filters by exact event, category, media type and user, alone and together', async () => {
      expect(await ids('?event=play')).to.deep.equal(['e2']);
      expect(await ids('?category=playback')).to.deep.equal(['e1', 'e3', 'e2']);
      expect(await ids('?media_type=track')).to.deep.equal(['e1', 'e3', 'e2']);
      expect(await ids('?user=anna')).to.deep.equal(['e3', 'e2']);
      expect(await ids('?user=anna&event=stop')).to.deep.equal(['e3']);
      expect(await ids('?category=library&media_type=movie')).to.deep.equal(['e5']);
      expect(await ids('?user=Anna')).to.deep.equal([]);
      expect(await ids('?event=&user=')).to.deep.equal(NEWEST_FIRST);
    });

    it('bounds the age with since_days (0: no bound)', async () => {
      expect(await ids('?since_days=7')).to.deep.equal(['e1', 'e3', 'e2', 'e4']);
      expect(await ids('?since_days=30&category=library')).to.deep.equal(['e4', 'e5']);
      expect(await ids('?since_days=0')).to.deep.equal(NEWEST_FIRST);
    });

    it('finds q in the title, artist, album, user, server or player, whatever the case, taken literally', async () => {
      expect(await ids('?q=MILES')).to.deep.equal(['e3', 'e2', 'e4']);
      expect(await ids('?q=samouraï')).to.deep.equal(['e5']);
      expect(await ids('?q=office&media_type=track')).to.deep.equal(['e1']);
      expect(await ids('?q=kitchen')).to.deep.equal(['e3', 'e2']);
      expect(await ids('?q=%25')).to.deep.equal([]);
      expect(await ids('?q=%20%20')).to.deep.equal(NEWEST_FIRST);
    });

    it('pages with page and limit; total counts the whole slice', async () => {
      const res = await admin.get('/admin/monitor/events?page=2&limit=2&category=playback');
      expect(res.body.items.map((e: { monitor_event_id: string }) => e.monitor_event_id)).to.deep.equal(['e2']);
      expect(res.body).to.include({ total: 3, page: 2, limit: 2 });
    });

    it('refuses parameters out of their range with 422', async () => {
      for (const query of ['since_days=-1', 'since_days=36501', 'limit=0', 'page=0', 'days=0']) {
        const path = query.startsWith('days') ? `/admin/monitor/stats?${query}` : `/admin/monitor/events?${query}`;
        expect((await admin.get(path)).status, query).to.equal(422);
      }
    });
  });

  describe('the stats', () => {
    const day = (id: string) => atOf(id).toISOString().slice(0, 10);

    it('counts the last 30 days by default: by event, category, media type, user and every day of the window', async () => {
      const body = await stats('');
      expect(body).to.include({ days: 30, total: 5 });
      expect(body.by_event).to.deep.equal(['created', 'library.new', 'media.play', 'play', 'stop'].map((value) => ({ value, count: 1 })));
      expect(body.by_category).to.deep.equal([{ value: 'playback', count: 3 }, { value: 'library', count: 2 }]);
      expect(body.by_media_type).to.deep.equal([{ value: 'track', count: 3 }, { value: 'album', count: 1 }, { value: 'movie', count: 1 }]);
      expect(body.by_user).to.deep.equal([{ value: 'anna', count: 2 }, { value: null, count: 2 }, { value: 'elan', count: 1 }]);
      expect(body.by_day).to.have.length.within(30, 31);
      expect(body.by_day.at(-1).day).to.equal(new Date(now).toISOString().slice(0, 10));
      const perDay = Object.fromEntries(body.by_day.filter((d: { count: number }) => d.count > 0).map((d: { day: string; count: number }) => [d.day, d.count]));
      const expected: Record<string, number> = {};
      for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) expected[day(id)] = (expected[day(id)] ?? 0) + 1;
      expect(perDay).to.deep.equal(expected);
    });

    it('describes the same slice as the list, filter for filter', async () => {
      const slices = ['user=anna', 'category=library', 'q=miles', 'media_type=track&user=elan', 'event=intdown', 'category=playback'];
      for (const window of [2, 30]) {
        for (const filters of slices) {
          const listed = (await admin.get(`/admin/monitor/events?${filters}&since_days=${window}`)).body.total;
          expect((await stats(`?${filters}&days=${window}`)).total, `${filters}, ${window} days`).to.equal(listed);
        }
      }
      expect((await stats('?user=anna')).by_event).to.deep.equal([{ value: 'play', count: 1 }, { value: 'stop', count: 1 }]);
      expect((await stats('?days=60')).total).to.equal(6);
      expect((await stats('?days=60&since_days=7')).total).to.equal(4);
    });
  });
});
