/** Delivered fields as facts: a category when the sender gives none, and blanks as absent values. */
import type { MonitorSource } from '../../shared/events/monitor.events.ts';

/**
 * The category of an event when its sender gives none: what kind of thing happened. The media
 * server names its events `<area>.<what>` (`media.play`, `library.new`, `admin.database.backup`,
 * `device.new`); the monitoring tool's agent sends its trigger's action (`play`, `created`,
 * `intdown`, …), the token `{action}` of the documented template.
 */
const MEDIASERVER_AREAS: Record<string, string> = { media: 'playback', playback: 'playback', library: 'library', admin: 'server', device: 'user' };
const MONITOR_ACTIONS: Record<string, string> = {
  play: 'playback', stop: 'playback', pause: 'playback', resume: 'playback', change: 'playback', buffer: 'playback',
  error: 'playback', intro: 'playback', commercial: 'playback', credits: 'playback', watched: 'playback',
  created: 'library',
  newdevice: 'user', concurrent: 'user',
  intdown: 'server', intup: 'server', extdown: 'server', extup: 'server', update: 'server',
};

export function categoryOf(source: MonitorSource, event: string): string {
  if (source === 'mediaserver') return MEDIASERVER_AREAS[event.split('.')[0]!] ?? 'other';
  return MONITOR_ACTIONS[event.toLowerCase()] ?? 'other';
}

/** Senders fill a missing value with an empty string (an unfilled template token): that is no value. */
export const blankToNull = (value: string | undefined): string | null => (value === undefined || value.trim() === '' ? null : value);
