import type { AppContext } from '../../infra/context.ts';
import { type Aggregate, aggregate } from '../../infra/eventstore/aggregate.ts';
import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import type { AppendResult, ExpectedRevision, NewEvent } from '../../infra/eventstore/event-store.ts';
import { factsKey, withLinked, withObserved } from '../../shared/canonical/doc-facts.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { EntityEvent, Facts, Kind, RefClaimEvent, Source } from '../../shared/events/canonical.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { hashedId, newId } from '../../shared/ids.ts';
import { entityStream, refClaimStream } from '../../shared/streams.ts';
import * as entityDecider from './entity.decider.ts';
import type { EntityCommand } from './entity.decider.ts';
import * as refClaim from './ref-claim.ts';
import type { Observation } from './observation.ts';
import type { ReconcileView } from './reconcile-view.ts';

type Loaded<S> = Aggregate<S>;
type Ref = { source: Source; external_id: string };

/**
 * One batch of observations decided in memory with the same deciders and matching rules as a
 * single reconcile, then appended at once with the revisions it read. A stream changed meanwhile
 * fails the append (WrongExpectedVersionError) and the caller runs the batch again.
 *
 * `trustReadModel`: a ref the read model does not know is taken as never claimed (its claim
 * stream is not read, and is appended with "no stream"); a retry turns it off.
 */
export class ReconcileBatch {
  private readonly claims = new Map<string, Loaded<refClaim.RefClaimState>>();
  private readonly entities = new Map<string, Loaded<entityDecider.EntityState>>();
  private readonly appends = new Map<string, { expected: ExpectedRevision; events: NewEvent[] }>();

  constructor(
    private readonly ctx: AppContext,
    private readonly actor: string | null,
    private readonly view: ReconcileView,
    private readonly trustReadModel: boolean,
  ) {}

  async reconcile(obs: Observation): Promise<string> {
    const facts: Facts & { name: string } = { ...obs.facts };
    if (obs.artist) {
      facts.artist_id = await this.reconcile(obs.artist);
      facts.artist_name ??= obs.artist.facts.name;
    }
    if (obs.album) {
      facts.album_id = await this.reconcile(obs.album);
      facts.album_title ??= obs.album.facts.name;
    }
    const ref = { source: obs.source, external_id: obs.external_id };
    // A re-sync sees mostly what it saw last time: the read model answers without reading the streams.
    const known = this.trustReadModel ? this.view.ownerHint(obs.kind, ref.source, ref.external_id) : undefined;
    if (known && this.view.alreadyObserved(known, factsKey(ref.source, ref.external_id), facts)) return known;
    const owner = (await this.claim(obs.kind, ref)).state.owner;
    let id: string;
    if (owner) {
      id = await this.finalId(obs.kind, owner);
    } else {
      const match = this.view.findMatch(obs.kind, facts);
      id = match?.id ?? (await this.register(obs.kind));
      await this.onClaim(obs.kind, ref, { type: 'ClaimRef', entityId: id });
      await this.onEntity(obs.kind, id, { type: 'LinkRef', source: ref.source, externalId: ref.external_id, evidence: match?.evidence ?? { rule: 'new_entity', value: null } });
    }
    await this.onEntity(obs.kind, id, { type: 'ObserveFacts', source: ref.source, externalId: ref.external_id, facts });
    return id;
  }

  /** Events decided and not appended yet. */
  pending(): number {
    let events = 0;
    for (const a of this.appends.values()) events += a.events.length;
    return events;
  }

  /**
   * Appends everything decided so far, one transaction on the Postgres store; undefined when
   * nothing changed. The batch goes on from the revisions written, so it may flush between
   * observations: each observation's claims and entity events still land together.
   */
  async flush(): Promise<AppendResult | undefined> {
    if (this.appends.size === 0) return undefined;
    const result = await this.ctx.store.appendMany([...this.appends].map(([streamId, a]) => ({ streamId, events: a.events, expectedRevision: a.expected })));
    for (const [stream, a] of this.appends) {
      const loaded = this.claims.get(stream) ?? this.entities.get(stream);
      if (loaded) loaded.expected = revisionAfter(a.expected, a.events.length);
    }
    this.appends.clear();
    return result;
  }

  private async register(kind: Kind): Promise<string> {
    const id = newId();
    this.entities.set(entityStream(kind, id), { state: entityDecider.initialState(), expected: 'no_stream' });
    await this.onEntity(kind, id, { type: 'RegisterEntity' });
    return id;
  }

  /** Follows merges in the log to the entity that stands now. */
  private async finalId(kind: Kind, id: string): Promise<string> {
    const seen = new Set<string>();
    for (let current = id; ; ) {
      const { state } = await this.entity(kind, current);
      if (state.status === 'none') throw new NotFound(`${kind} ${id} not found`);
      if (state.status !== 'merged' || seen.has(current)) return current;
      seen.add(current);
      current = state.mergedInto!;
    }
  }

  private async entity(kind: Kind, id: string): Promise<Loaded<entityDecider.EntityState>> {
    const stream = entityStream(kind, id);
    let loaded = this.entities.get(stream);
    if (!loaded) {
      loaded = await aggregate<entityDecider.EntityState, EntityEvent>(this.ctx.store, stream, entityDecider.evolve, entityDecider.initialState());
      this.entities.set(stream, loaded);
    }
    return loaded;
  }

  private async claim(kind: Kind, ref: Ref): Promise<Loaded<refClaim.RefClaimState>> {
    const stream = refClaimStream(kind, ref.source, hashedId(ref.external_id));
    let loaded = this.claims.get(stream);
    if (!loaded) {
      const hint = this.view.ownerHint(kind, ref.source, ref.external_id);
      if (this.trustReadModel && !hint) {
        loaded = { state: refClaim.initialState(), expected: 'no_stream' };
      } else {
        loaded = await aggregate<refClaim.RefClaimState, RefClaimEvent>(this.ctx.store, stream, refClaim.evolve, refClaim.initialState());
      }
      this.claims.set(stream, loaded);
    }
    return loaded;
  }

  private async onEntity(kind: Kind, id: string, command: WithoutMeta<EntityCommand>): Promise<void> {
    const stream = entityStream(kind, id);
    const loaded = await this.entity(kind, id);
    const events = entityDecider.decide(loaded.state, { ...command, meta: { kind, id, now: new Date().toISOString() } } as EntityCommand);
    const written = this.record(stream, loaded.expected, events);
    for (const [i, event] of events.entries()) {
      loaded.state = entityDecider.evolve(loaded.state, event);
      // The projector sees the event as written (schema-parsed), so the view does too.
      await this.project({ type: event.type, data: written[i]!.data } as EntityEvent);
    }
  }

  private async onClaim(kind: Kind, ref: Ref, command: WithoutMeta<refClaim.RefClaimCommand>): Promise<void> {
    const stream = refClaimStream(kind, ref.source, hashedId(ref.external_id));
    const loaded = await this.claim(kind, ref);
    const meta = { kind, source: ref.source, externalId: ref.external_id, now: new Date().toISOString() };
    const events = refClaim.decide(loaded.state, { ...command, meta } as refClaim.RefClaimCommand);
    for (const event of events) loaded.state = refClaim.evolve(loaded.state, event);
    this.record(stream, loaded.expected, events);
  }

  /** What the canonical docs projector will do with the event, in the batch's view. */
  private async project(event: EntityEvent): Promise<void> {
    const { kind, id } = event.data;
    if (event.type === 'EntityRegistered') this.view.registered(kind, id, event.data.at);
    else if (event.type === 'RefLinked') await this.view.changed(kind, id, (f) => withLinked(f, factsKey(event.data.source, event.data.external_id)));
    else if (event.type === 'FactsObserved') await this.view.changed(kind, id, (f) => withObserved(f, factsKey(event.data.source, event.data.external_id), event.data.facts));
  }

  private record(stream: string, expected: ExpectedRevision, events: (EntityEvent | RefClaimEvent)[]): NewEvent[] {
    const written = events.map((e) => toNewEvent(e, { actor: this.actor }));
    if (written.length === 0) return written;
    const pending = this.appends.get(stream) ?? { expected, events: [] };
    pending.events.push(...written);
    this.appends.set(stream, pending);
    return written;
  }
}

function revisionAfter(expected: ExpectedRevision, appended: number): ExpectedRevision {
  if (expected === 'no_stream') return appended - 1;
  return typeof expected === 'number' ? expected + appended : expected;
}
