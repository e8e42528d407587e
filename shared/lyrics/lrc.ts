/** One line of synced lyrics: when it starts (milliseconds from the track's start) and its text. */
export interface SyncedLine {
  time_ms: number;
  text: string;
}

const TIME_TAG = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g;
const LEADING_TAGS = /^(\s*\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\])+/;
const OFFSET_TAG = /^\s*\[offset:\s*([+-]?\d+)\s*\]\s*$/i;

/** `[mm:ss.xx]` → milliseconds: the fraction is read as written (`.5` half a second, `.05` and `.050` fifty milliseconds). */
function millisecondsOf(minutes: string, seconds: string, fraction: string | undefined): number {
  const ms = fraction === undefined ? 0 : Math.round(Number(`0.${fraction}`) * 1000);
  return Number(minutes) * 60_000 + Number(seconds) * 1000 + ms;
}

/**
 * Parses LRC text into lines ordered by time. A line may carry several time tags (a repeated
 * chorus); metadata tags (`[ar:…]`, `[ti:…]`) and lines without a time tag are skipped; an
 * `[offset:±ms]` tag shifts every line (a positive offset makes lines come sooner). Empty texts
 * are kept: they mark instrumental breaks.
 */
export function parseLrc(lrc: string): SyncedLine[] {
  let offset = 0;
  const lines: SyncedLine[] = [];
  for (const raw of lrc.split(/\r?\n/)) {
    const shift = OFFSET_TAG.exec(raw);
    if (shift) {
      offset = Number(shift[1]);
      continue;
    }
    const tags = LEADING_TAGS.exec(raw)?.[0];
    if (!tags) continue;
    const text = raw.slice(tags.length).trim();
    for (const m of tags.matchAll(TIME_TAG)) lines.push({ time_ms: millisecondsOf(m[1]!, m[2]!, m[3]), text });
  }
  return lines.map((l) => ({ time_ms: Math.max(0, l.time_ms - offset), text: l.text })).sort((a, b) => a.time_ms - b.time_ms);
}
