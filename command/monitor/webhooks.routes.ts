import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import type { Intake } from '../../infra/http/intake.ts';
import { mediaserverDelivery, MediaserverWebhookPayload } from './mediaserver-webhook.ts';
import { monitorDelivery, MonitorWebhookBody } from './monitor-webhook.ts';
import { recordDelivery } from './record-delivery.ts';

const SECRET = { secret: 'MONITOR_WEBHOOK_SECRET', header: 'x-monitor-token' } as const satisfies Partial<Intake>;
/** The media server attaches a thumbnail JPEG to some events: the form may weigh that much; the JSON is capped apart. */
const FORM_BYTES = 1024 * 1024;
const JSON_BYTES = 64 * 1024;

const Token = z.object({ token: z.string().max(512).optional().describe('the shared secret, for senders that only take a URL (or the X-Monitor-Token header)') });
const Recorded = z.object({
  monitor_event_id: z.string(),
  duplicate: z.boolean().describe('the delivery carried an id already recorded: nothing new was recorded'),
});
const ERRORS = {
  401: 'Missing or wrong shared secret',
  404: 'The intake is off (MONITOR_WEBHOOK_SECRET unset)',
  413: 'The delivery is larger than the intake takes',
};

export const monitorWebhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/monitor/webhooks/mediaserver',
    tag: 'monitor',
    summary: "The media server's webhook: a playback, library, server or device event",
    description:
      'multipart/form-data with a `payload` field holding the JSON the media server sends (a thumbnail part, when present, is dropped). Authenticated by the shared secret `MONITOR_WEBHOOK_SECRET` in `?token=` (the media server only takes a URL) or the `X-Monitor-Token` header; no session. Recorded as a monitor event with the raw fields, secrets removed.',
    access: 'public',
    intake: { ...SECRET, body: 'form', maxBytes: FORM_BYTES, jsonFields: ['payload'] },
    query: Token,
    body: z.object({ payload: MediaserverWebhookPayload }),
    response: Recorded,
    errors: { ...ERRORS, 415: 'Not multipart/form-data' },
    handler: ({ ctx, body }) => recordDelivery(ctx, mediaserverDelivery(body.payload, ctx.config.MONITOR_WEBHOOK_SECRET!)),
  }),
  defineRoute({
    method: 'post',
    path: '/monitor/webhooks/monitor',
    tag: 'monitor',
    summary: "The monitoring tool's webhook agent: the documented JSON template, tokens filled in",
    description:
      'JSON `{id, event, category, media_type, user, title, artist, album, server, player, …}` (docs/monitor.md has the template); only `event` is required, other fields are kept as sent. A repeated `id` is recorded once. Authenticated by the shared secret `MONITOR_WEBHOOK_SECRET` in the `X-Monitor-Token` header or `?token=`; no session.',
    access: 'public',
    intake: { ...SECRET, body: 'json', maxBytes: JSON_BYTES },
    query: Token,
    body: MonitorWebhookBody,
    response: Recorded,
    errors: ERRORS,
    handler: ({ ctx, body }) => recordDelivery(ctx, monitorDelivery(body, ctx.config.MONITOR_WEBHOOK_SECRET!)),
  }),
];
