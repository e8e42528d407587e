import type { LoggedEvent } from './log.ts';
import type { ReadRequest } from './proto.ts';

type ReadOptions = NonNullable<ReturnType<ReadRequest['getOptions']>>;

/** Server-side filtering of `$all`: on the stream name or the event type, by prefixes or a regex. */
export interface EventFilter {
  matches(event: LoggedEvent): boolean;
  /** A filtered subscription reports how far it has searched every this many events. */
  checkpointEvery: number;
}

/** The server searches this many events per window when the client names no maximum. */
const DEFAULT_SEARCH_WINDOW = 32;

export function eventFilter(options: ReadOptions): EventFilter | undefined {
  if (!options.hasFilter()) return undefined;
  const filter = options.getFilter()!;
  const onStream = filter.hasStreamIdentifier();
  const expression = onStream ? filter.getStreamIdentifier()! : filter.getEventType()!;
  const prefixes = expression.getPrefixList();
  // .NET's Regex.IsMatch searches anywhere in the text, as RegExp.test does.
  const regex = expression.getRegex() ? new RegExp(expression.getRegex()) : undefined;
  const window = filter.hasMax() ? filter.getMax() : DEFAULT_SEARCH_WINDOW;
  return {
    matches(event) {
      const subject = onStream ? event.streamId : event.type;
      return regex ? regex.test(subject) : prefixes.some((prefix) => subject.startsWith(prefix));
    },
    checkpointEvery: Math.max(1, filter.getCheckpointintervalmultiplier()) * window,
  };
}
