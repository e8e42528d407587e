import { z } from 'zod';
import type { Delivery } from './record-delivery.ts';
import { blankToNull, categoryOf } from './facts.ts';
import { withoutSecrets } from './raw-fields.ts';

const text = (max: number) => z.string().max(max).optional();
const named = z.looseObject({ title: text(1000) }).optional();

/**
 * The JSON of the media server's webhook (`payload` form field): the event, the account, the
 * server and player it happened on, and the item (`Metadata`: a track has its album as
 * `parentTitle` and its artist as `grandparentTitle`). Every other field is kept as sent.
 */
export const MediaserverWebhookPayload = z.looseObject({
  event: z.string().trim().min(1).max(100),
  Account: named,
  Server: named,
  Player: named,
  Metadata: z
    .looseObject({ type: text(50), title: text(1000), parentTitle: text(1000), grandparentTitle: text(1000) })
    .optional(),
});
export type MediaserverWebhookPayload = z.infer<typeof MediaserverWebhookPayload>;


/** The media server sends no id of its own for a delivery: each one is a new event. */
export function mediaserverDelivery(payload: MediaserverWebhookPayload, intakeSecret: string): Delivery {
  const item = payload.Metadata;
  const track = item?.type === 'track';
  return {
    source: 'mediaserver',
    deliveryId: null,
    facts: {
      event: payload.event,
      category: categoryOf('mediaserver', payload.event),
      media_type: blankToNull(item?.type),
      user: blankToNull(payload.Account?.title),
      title: blankToNull(item?.title),
      artist: track ? blankToNull(item?.grandparentTitle) : null,
      album: track ? blankToNull(item?.parentTitle) : null,
      server: blankToNull(payload.Server?.title),
      player: blankToNull(payload.Player?.title),
    },
    raw: withoutSecrets(payload, intakeSecret),
  };
}
