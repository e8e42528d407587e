/** Small helpers to measure and print: timers, percentiles, fixed-width tables. */

export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = now();
  const value = await fn();
  return { ms: now() - started, value };
}

export function rate(events: number, ms: number): number {
  return ms > 0 ? (events * 1000) / ms : 0;
}

/** Nearest-rank percentile of an unsorted sample. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function fmtRate(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—';
}

export function fmtMs(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

export function fmtRatio(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return n >= 10 ? `${n.toFixed(1)}x` : n >= 0.1 ? `${n.toFixed(2)}x` : `${n.toFixed(3)}x`;
}

export function table(headers: string[], rows: string[][], alignRight: boolean[] = headers.map((_, i) => i > 0)): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (alignRight[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (alignRight[i] ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}
