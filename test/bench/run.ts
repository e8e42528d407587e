/**
 * `npm run bench`: the Postgres event store on PGlite (always) and on PostgreSQL (when it answers),
 * beside each database's raw INSERT ceiling, then a cheap GET's p99 on the embedded default, idle
 * and while a rebuild runs. Every ratio compares figures measured in this same run.
 *
 * BENCH_EVENTS scales the run (default 50000: the events seeded for the latency part; the store
 * part appends 2/5 of it in batches, twice). BENCH_DATABASE_URL points at PostgreSQL (default
 * postgres://postgres@127.0.0.1:5432/test); a throwaway database is created there and dropped.
 * BENCH_PARTS picks the parts to run (default `store,latency,import`); `import` measures the same GET
 * while a bulk import of BENCH_IMPORT_SCROBBLES (default 20000) scrobbles runs.
 *
 * BENCH_SIZE=small (`npm run bench:all` in CI) shrinks the defaults to a run of a few minutes:
 * 5000 events, an import of 2000 scrobbles; `full` (the default) is the run for a person.
 * The last table puts each throughput goal beside its ratio.
 */
import os from 'node:os';
import { setLogLevel } from '../../infra/logger.ts';
import { type BenchDatabase, DEFAULT_POSTGRES_URL, pgliteDatabase, postgresDatabase, probePostgres } from './databases.ts';
import { benchLatency, rebuildRate } from './latency-bench.ts';
import { benchImportLatency } from './import-latency-bench.ts';
import { envInt, fmtMs, fmtRate, fmtRatio, table } from './report.ts';
import { type Measure, type StoreBenchSizes, benchStore } from './store-bench.ts';

setLogLevel('silent');
const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);

const small = process.env.BENCH_SIZE === 'small';
if (process.env.BENCH_SIZE && !['small', 'full'].includes(process.env.BENCH_SIZE)) throw new Error('BENCH_SIZE is small or full');
const total = envInt('BENCH_EVENTS', small ? 5000 : 50_000);
const storeSizes: StoreBenchSizes = {
  events: Math.max(1000, Math.round((total * 2) / 5 / 100) * 100),
  batch: 100,
  single: Math.max(100, Math.min(2000, Math.round(total / 25 / 10) * 10)),
  concurrency: 4,
};
const latencySizes = { seed: Math.max(1000, Math.round(total / 100) * 100), idleRequests: small ? 500 : 2000 };

console.log(`# Event store benchmark (${new Date().toISOString()})`);
console.log(`node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim() ?? '?'}), ${os.platform()} ${os.release()}`);
console.log(
  `sizes: ${storeSizes.events} events appended in batches of ${storeSizes.batch} (sequential, then again with ${storeSizes.concurrency} concurrent callers), ` +
    `${storeSizes.single} single-event appends, ${latencySizes.seed} events seeded in the service (BENCH_EVENTS=${total})`,
);

interface EngineResult {
  label: string;
  measures: Measure[];
}
const engines: EngineResult[] = [];

async function onEngine(open: () => Promise<BenchDatabase>): Promise<void> {
  const database = await open();
  note(`${database.label}: start`);
  try {
    engines.push({ label: database.label, measures: await benchStore(database.handle.db, storeSizes, (m) => note(`${database.label}: ${m}`)) });
  } finally {
    await database.dispose();
  }
}

const parts = new Set((process.env.BENCH_PARTS ?? 'store,latency,import').split(',').map((p) => p.trim()));
if (parts.has('store')) await benchStores();

async function benchStores(): Promise<void> {
  await onEngine(pgliteDatabase);
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
  const unreachable = await probePostgres(postgresUrl);
  if (unreachable) {
    if (process.env.BENCH_DATABASE_URL) throw new Error(`BENCH_DATABASE_URL does not answer: ${unreachable}`);
    note(`PostgreSQL skipped: ${postgresUrl} does not answer (${unreachable})`);
  } else {
    await onEngine(() => postgresDatabase(postgresUrl));
  }
}

const latency = parts.has('latency') ? (note('service latency: start'), await benchLatency(latencySizes, note)) : undefined;
const importSizes = { scrobbles: envInt('BENCH_IMPORT_SCROBBLES', small ? 2000 : 20_000), idleRequests: small ? 500 : 2000 };
const importing = parts.has('import') ? (note('latency during an import: start'), await benchImportLatency(importSizes, note)) : undefined;

// ---- report ----
for (const engine of engines) {
  const ceiling = engine.measures.find((m) => m.key === 'raw_multi')!.rate;
  const rawSingle = engine.measures.find((m) => m.key === 'raw_single')!.rate;
  console.log(`\n## ${engine.label}\n`);
  console.log(
    table(
      ['measurement', 'events', 'seconds', 'events/s', 'vs raw INSERT ceiling'],
      engine.measures.map((m) => [
        m.label,
        String(m.events),
        (m.ms / 1000).toFixed(2),
        fmtRate(m.rate),
        m.key === 'raw_multi' ? '1 (ceiling)' : fmtRatio(m.rate / ceiling),
      ]),
    ),
  );
  const single = engine.measures.find((m) => m.key === 'append_single')!;
  console.log(
    `\nsingle-event append: ${fmtMs(single.ms / single.events)} ms per call, ` +
      `${fmtRatio(single.rate / rawSingle)} of a raw 1-row INSERT (${fmtMs(1000 / rawSingle)} ms)`,
  );
}

if (engines.length > 1) {
  console.log('\n## Ratios to each database\'s raw INSERT ceiling\n');
  const keys = engines[0]!.measures.map((m) => m.key);
  console.log(
    table(
      ['measurement', ...engines.map((e) => e.label)],
      keys.map((key) => [
        engines[0]!.measures.find((m) => m.key === key)!.label,
        ...engines.map((e) => {
          const ceiling = e.measures.find((m) => m.key === 'raw_multi')!.rate;
          const m = e.measures.find((x) => x.key === key)!;
          return `${fmtRatio(m.rate / ceiling)} (${fmtRate(m.rate)}/s)`;
        }),
      ]),
    ),
  );
}

if (latency) reportLatency(latency);
if (importing) reportImportLatency(importing);
reportGoals();

/** Each goal of the throughput work beside its ratio in this run (a part not run leaves its rows out). */
function reportGoals(): void {
  const embedded = engines.find((e) => e.label.startsWith('PGlite'))?.measures;
  const ratioTo = (key: string, ceilingKey: string) => {
    const m = embedded?.find((x) => x.key === key);
    const c = embedded?.find((x) => x.key === ceilingKey);
    return m && c ? m.rate / c.rate : undefined;
  };
  const ceiling = embedded?.find((m) => m.key === 'raw_multi')?.rate;
  const rows: [string, string, number | undefined][] = [
    ['appendMany, 100 events per call, vs raw INSERT', '≥ 0.7x', ratioTo('append_batch', 'raw_multi')],
    ['projection catch-up from empty vs raw INSERT', '≥ 0.3x', ratioTo('project_all', 'raw_multi')],
    ['rebuild task while the API is served vs raw INSERT', '≥ 0.3x', latency && ceiling ? rebuildRate(latency) / ceiling : undefined],
    ['GET p99 during a rebuild vs idle', '≤ 2x', latency ? latency.rebuild.p99 / latency.idle.p99 : undefined],
    ['bulk import vs raw INSERT', '≥ 0.25x', importing && ceiling ? importing.alone.scrobbles / importing.alone.seconds / ceiling : undefined],
    ['bulk import of names the library knows vs raw INSERT', '—', importing && ceiling ? importing.known.scrobbles / importing.known.seconds / ceiling : undefined],
    ['bulk import while a GET probe runs vs raw INSERT', '—', importing && ceiling ? importing.scrobbles / importing.importSeconds / ceiling : undefined],
    ['GET p99 during a bulk import vs idle', '≤ 2x', importing ? importing.importing.p99 / importing.idle.p99 : undefined],
  ];
  const measured = rows.filter(([, , ratio]) => ratio !== undefined);
  if (measured.length === 0) return;
  console.log(`\n## Throughput goals (ratios from this run${small ? ', BENCH_SIZE=small' : ''})\n`);
  console.log(table(['goal', 'target', 'ratio'], measured.map(([goal, target, ratio]) => [goal, target, fmtRatio(ratio!)])));
}

function reportImportLatency(result: Awaited<ReturnType<typeof benchImportLatency>>): void {
  console.log(`\n## GET /auth/me on the embedded default while a bulk import of ${result.scrobbles} scrobbles runs\n`);
  console.log(
    table(
      ['phase', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
      [
        ['idle', result.idle] as const,
        ['while the bulk import runs', result.importing] as const,
      ].map(([phase, s]) => [phase, String(s.count), fmtMs(s.p50), fmtMs(s.p99), fmtMs(s.max), String(s.errors)]),
    ),
  );
  console.log(
    `\np99(import) / p99(idle) = ${fmtRatio(result.importing.p99 / result.idle.p99)}  (target: within 2x)` +
      `\np50(import) / p50(idle) = ${fmtRatio(result.importing.p50 / result.idle.p50)}` +
      `\nimport: ${result.scrobbles} scrobbles in ${result.importSeconds.toFixed(1)} s = ${fmtRate(result.scrobbles / result.importSeconds)} scrobbles/s` +
      `\nthe same import alone (no request meanwhile): ${result.alone.scrobbles} scrobbles in ${result.alone.seconds.toFixed(1)} s = ${fmtRate(result.alone.scrobbles / result.alone.seconds)} scrobbles/s` +
      `\nthen the same history for a second user, every name known: ${result.known.scrobbles} scrobbles in ${result.known.seconds.toFixed(1)} s = ${fmtRate(result.known.scrobbles / result.known.seconds)} scrobbles/s`,
  );
}

function reportLatency(latency: Awaited<ReturnType<typeof benchLatency>>): void {
  console.log(`\n## GET /auth/me on the embedded default (PGlite in DATA_DIR), ${latency.seeded} task events in the log\n`);
  console.log(
    table(
      ['phase', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
      [
        ['idle', latency.idle, ''] as const,
        ['while POST /admin/canonical/rebuild runs', latency.rebuild, ''] as const,
      ].map(([phase, s]) => [phase, String(s.count), fmtMs(s.p50), fmtMs(s.p99), fmtMs(s.max), String(s.errors)]),
    ),
  );
  const p99Ratio = latency.rebuild.p99 / latency.idle.p99;
  console.log(
    `\np99(rebuild) / p99(idle) = ${fmtRatio(p99Ratio)}  (target: within 2x)` +
      `\np50(rebuild) / p50(idle) = ${fmtRatio(latency.rebuild.p50 / latency.idle.p50)}` +
      `\nrebuild task: ${latency.rebuildEvents} events replayed in ${latency.rebuildSeconds.toFixed(2)} s = ${fmtRate(rebuildRate(latency))} events/s ` +
      `(POST to completed seen by the client: ${(latency.rebuildWallMs / 1000).toFixed(2)} s)` +
      `\nseeding: ${latency.seeded} events via appendMany(100) with the live projector running: ${fmtRate((latency.seeded * 1000) / latency.seedMs)} events/s; ` +
      `projections settled ${(latency.settleMs / 1000).toFixed(2)} s after the last append`,
  );
}
console.log(`\ntotal bench time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
