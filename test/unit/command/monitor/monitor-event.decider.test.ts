import { expect } from 'chai';
import * as delivery from '../../../../command/monitor/monitor-event.decider.ts';
import { mediaserverDelivery, MediaserverWebhookPayload } from '../../../../command/monitor/mediaserver-webhook.ts';
import { monitorDelivery, MonitorWebhookBody } from '../../../../command/monitor/monitor-webhook.ts';
import type { MonitorEvent } from '../../../../shared/events/monitor.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const facts = { event: 'play', category: 'playback', media_type: 'track', user: 'anna', title: 'T', artist: null, album: null, server: null, player: null };
const command: delivery.RecordMonitorEvent = { type: 'RecordMonitorEvent', source: 'monitor', deliveryId: 'd1', facts, raw: { event: 'play' }, meta: { monitorEventId: 'm1', now: at } };
const recorded: MonitorEvent = { type: 'MonitorEventRecorded', data: { monitor_event_id: 'm1', source: 'monitor', delivery_id: 'd1', ...facts, raw: { event: 'play' }, at } };

const given = (...events: MonitorEvent[]) => ({
  then: (expected: MonitorEvent[]) => expect(delivery.decide(events.reduce(delivery.evolve, delivery.initialState()), command)).to.deep.equal(expected),
});

describe('monitor delivery decider', () => {
  it('records a delivery once: the same delivery again decides nothing', () => {
    given().then([recorded]);
    given(recorded).then([]);
  });
});

describe('monitor deliveries as facts', () => {
  const SECRET = 'the-intake-secret-0123';

  it("reads the media server's event: the track's artist and album, a category from the event's area", () => {
    const payload = MediaserverWebhookPayload.parse({
      event: 'media.scrobble', Account: { title: 'elan' }, Server: { title: 'Office' }, Player: { title: 'Web' },
      Metadata: { type: 'track', title: 'Song', parentTitle: 'Album', grandparentTitle: 'Artist', thumb: `/t?X-Plex-Token=${SECRET}` },
    });
    const d = mediaserverDelivery(payload, SECRET);
    expect(d.facts).to.deep.equal({ event: 'media.scrobble', category: 'playback', media_type: 'track', user: 'elan', title: 'Song', artist: 'Artist', album: 'Album', server: 'Office', player: 'Web' });
    expect(d.deliveryId).to.equal(null);
    expect((d.raw.Metadata as { thumb: string }).thumb).to.equal('[redacted]');
    expect(mediaserverDelivery(MediaserverWebhookPayload.parse({ event: 'library.new', Metadata: { type: 'album', title: 'A', grandparentTitle: 'X' } }), SECRET).facts).to.deep.include({ category: 'library', artist: null });
    expect(mediaserverDelivery(MediaserverWebhookPayload.parse({ event: 'admin.database.backup' }), SECRET).facts).to.deep.include({ category: 'server', media_type: null, user: null });
  });

  it("reads the monitor's template: unfilled tokens are absent, a numeric id is an id, the category comes from the action when not given", () => {
    const body = MonitorWebhookBody.parse({ id: 42, event: 'created', media_type: 'album', user: '', title: 'Kind of Blue', server: ' ' });
    const d = monitorDelivery(body, 'secret-0123456789');
    expect(d.deliveryId).to.equal('42');
    expect(d.facts).to.deep.include({ event: 'created', category: 'library', user: null, server: null, title: 'Kind of Blue' });
    expect(monitorDelivery(MonitorWebhookBody.parse({ event: 'play', category: 'music' }), 'secret-0123456789').facts.category).to.equal('music');
    expect(monitorDelivery(MonitorWebhookBody.parse({ event: 'something-new' }), 'secret-0123456789').facts.category).to.equal('other');
    expect(monitorDelivery(MonitorWebhookBody.parse({ event: 'play', id: '' }), 'secret-0123456789').deliveryId).to.equal(null);
  });
});
