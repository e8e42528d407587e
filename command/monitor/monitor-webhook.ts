import { z } from 'zod';
import { bodyInt } from '../../infra/http/params.ts';
import type { Delivery } from './record-delivery.ts';
import { blankToNull, categoryOf } from './facts.ts';
import { withoutSecrets } from './raw-fields.ts';

const text = (max: number) => z.string().max(max).optional();

/**
 * What the monitoring tool's webhook agent posts: the JSON template of docs/monitor.md with its
 * `{tokens}` filled in. An unfilled token arrives as an empty string, which counts as absent.
 * `id`, when the template gives one, makes a repeated delivery count once. Other fields are kept.
 */
export const MonitorWebhookBody = z.looseObject({
  /** A numeric id is taken as its decimal text; fifteen digits are more than any counter or timestamp a template makes. */
  id: z.union([z.string().max(200), bodyInt({ min: 0, max: 999_999_999_999_999 })]).optional(),
  event: z.string().trim().min(1).max(100),
  category: text(100),
  media_type: text(50),
  user: text(1000),
  title: text(1000),
  artist: text(1000),
  album: text(1000),
  server: text(1000),
  player: text(1000),
});
export type MonitorWebhookBody = z.infer<typeof MonitorWebhookBody>;


export function monitorDelivery(body: MonitorWebhookBody, intakeSecret: string): Delivery {
  const id = body.id === undefined ? null : blankToNull(String(body.id));
  return {
    source: 'monitor',
    deliveryId: id,
    facts: {
      event: body.event,
      category: blankToNull(body.category) ?? categoryOf('monitor', body.event),
      media_type: blankToNull(body.media_type),
      user: blankToNull(body.user),
      title: blankToNull(body.title),
      artist: blankToNull(body.artist),
      album: blankToNull(body.album),
      server: blankToNull(body.server),
      player: blankToNull(body.player),
    },
    raw: withoutSecrets(body, intakeSecret),
  };
}
