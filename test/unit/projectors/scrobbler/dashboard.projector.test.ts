import { expect } from 'chai';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import { START } from '../../../../infra/eventstore/event-store.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { dashboardProjector } from '../../../../projectors/scrobbler/dashboard.projector.ts';
import type { ScrobbleEvent } from '../../../../shared/events/scrobbles.events.ts';
import type { EntityEvent } from '../../../../shared/events/canonical.events.ts';

type Handled = ScrobbleEvent | Extract<EntityEvent, { type: 'EntityMergedInto' }>;
import { freshDatabase } from '../../../support/database.ts';
import { DAY, type Play, scrobble } from '../../../support/scrobbles.ts';

const AT = '2024-06-30T12:00:00.000Z';
const base = Date.parse('2024-06-01T00:00:00Z') / 1000;
let revision = 0;

function stored(event: Handled): StoredEvent {
  return { ...event, id: `e${revision}`, streamId: 'scrobbles-u', revision: revision++, position: START, metadata: {}, createdAt: new Date(AT) } as StoredEvent;
}

const plays: Play[] = [
  { artist: 'A', album: 'X', track: 't1', artistId: 'ART-A', albumId: 'ALB-X', trackId: 'TRK-1', uts: base + 3600 },
  { artist: 'A', album: 'X', track: 't1', artistId: 'ART-A', albumId: 'ALB-X', trackId: 'TRK-1', uts: base + DAY + 7200 },
  { artist: 'A', album: 'X', track: 't2', artistId: 'ART-A', albumId: 'ALB-X', trackId: 'TRK-2', uts: base + 2 * DAY },
  { artist: 'B', track: 'u1', uts: base + 4 * DAY + 60 },
  { artist: 'B', track: 'u1', uts: base + 5 * DAY },
  { artist: 'Ghost', track: 'zero', uts: 0 },
  { artist: 'Ghost', track: 'future', uts: Date.parse(AT) / 1000 + 5 * DAY },
];
const scrobbles = plays.map((p) => scrobble('u', p));
const imported = (from: number, to: number): ScrobbleEvent => ({
  type: 'ScrobblesImported',
  data: { username: 'u', scrobbler_username: 'U-fm', task_id: null, page: null, total_pages: null, scrobbles: scrobbles.slice(from, to), at: AT },
});
const history: Handled[] = [
  imported(0, 4),
  imported(3, 7),
  { type: 'ScrobbleCanonicalLinked', data: { username: 'u', scrobble_id: scrobbles[3]!.scrobble_id, canonical_artist_id: 'ART-B', canonical_album_id: null, canonical_track_id: 'TRK-U', linked_by: 'u', at: AT } },
  { type: 'EntityMergedInto', data: { kind: 'track', id: 'TRK-2', target_id: 'TRK-1', at: AT } },
  { type: 'ScrobblesDeleted', data: { username: 'u', scrobble_ids: [scrobbles[1]!.scrobble_id, scrobbles[5]!.scrobble_id], reason: 'admin_delete', deleted_by: 'admin', at: AT } },
];

describe('dashboard projector', () => {
  let handle: DatabaseHandle;
  before(async () => {
    handle = await freshDatabase();
  });
  after(() => handle.close());
  beforeEach(() => reset());

  async function reset() {
    for (const table of dashboardProjector.tables) await handle.db.deleteFrom(table).execute();
  }
  const apply = (events: Handled[]) => handle.db.transaction().execute((trx) => dashboardProjector.apply(trx, events.map(stored)));

  async function snapshot(): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of dashboardProjector.tables) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(handle.db);
      out[table] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  }

  it('given the history applied once, when it is applied again, then nothing changes', async () => {
    await apply(history);
    const once = await snapshot();
    await apply(history);
    expect(await snapshot()).to.deep.equal(once);
    for (const event of history) await apply([event]);
    expect(await snapshot()).to.deep.equal(once);
  });

  it('given the history in one batch or one event at a time, then the read models are equal', async () => {
    await apply(history);
    const batched = await snapshot();
    await reset();
    for (const event of history) await apply([event]);
    expect(await snapshot()).to.deep.equal(batched);
  });

  it('given the history, then the aggregates count each valid, undeleted scrobble once under its current, merged entities', async () => {
    await apply(history);
    const db = handle.db;
    const totals = await db.selectFrom('dashboard_totals').selectAll().executeTakeFirstOrThrow();
    expect(totals).to.include({ user_key: 'u', listener: 'u-fm', scrobbles: 4, artists: 3, albums: 1, tracks: 3 });
    const byKey = (a: { kind: string; entity_key: string }, b: { kind: string; entity_key: string }) => a.kind.localeCompare(b.kind) || a.entity_key.localeCompare(b.entity_key);
    const entities = await db.selectFrom('dashboard_entities').select(['kind', 'entity_key', 'plays', 'first_uts', 'last_uts']).execute();
    expect(entities.sort(byKey)).to.deep.equal([
      { kind: 'album', entity_key: 'ALB-X', plays: 2, first_uts: base + 3600, last_uts: base + 2 * DAY },
      { kind: 'artist', entity_key: 'ART-A', plays: 2, first_uts: base + 3600, last_uts: base + 2 * DAY },
      { kind: 'artist', entity_key: 'ART-B', plays: 1, first_uts: base + 4 * DAY + 60, last_uts: base + 4 * DAY + 60 },
      { kind: 'artist', entity_key: 's:b', plays: 1, first_uts: base + 5 * DAY, last_uts: base + 5 * DAY },
      // TRK-2 was merged into TRK-1.
      { kind: 'track', entity_key: 'TRK-1', plays: 2, first_uts: base + 3600, last_uts: base + 2 * DAY },
      { kind: 'track', entity_key: 'TRK-U', plays: 1, first_uts: base + 4 * DAY + 60, last_uts: base + 4 * DAY + 60 },
      { kind: 'track', entity_key: 's:B::u1', plays: 1, first_uts: base + 5 * DAY, last_uts: base + 5 * DAY },
    ].sort(byKey));
    const trackKeys = await db.selectFrom('dashboard_scrobbles').select('track_key').execute();
    expect(trackKeys.map((r) => r.track_key)).to.not.include('TRK-2');
    const invalid = await db.selectFrom('dashboard_invalid').select(['kind']).execute();
    expect(invalid.map((r) => r.kind)).to.deep.equal(['future']);
    const runs = await db.selectFrom('dashboard_streaks').select(['start_day', 'end_day', 'length']).orderBy('start_day').execute();
    const d0 = base / DAY;
    // Day 1 lost its only play: the run of days 0–2 split.
    expect(runs).to.deep.equal([
      { start_day: d0, end_day: d0, length: 1 },
      { start_day: d0 + 2, end_day: d0 + 2, length: 1 },
      { start_day: d0 + 4, end_day: d0 + 5, length: 2 },
    ]);
  });
});
