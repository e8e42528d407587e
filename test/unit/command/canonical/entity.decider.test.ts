import { expect } from 'chai';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import * as entity from '../../../../command/canonical/entity.decider.ts';
import type { EntityCommand } from '../../../../command/canonical/entity.decider.ts';
import * as claim from '../../../../command/canonical/ref-claim.ts';
import type { RefClaimCommand } from '../../../../command/canonical/ref-claim.ts';
import type { EntityEvent, RefClaimEvent } from '../../../../shared/events/canonical.events.ts';
import { Conflict, NotFound } from '../../../../shared/errors.ts';

const at = '2026-01-01T00:00:00.000Z';
const meta = { kind: 'artist' as const, id: 'A', now: at };

function given(...events: EntityEvent[]) {
  const state = events.reduce(entity.evolve, entity.initialState());
  return {
    when: (command: WithoutMeta<EntityCommand>) => ({
      then: (expected: EntityEvent[] | (new (...a: any[]) => Error)) => {
        const run = () => entity.decide(state, { ...command, meta } as EntityCommand);
        if (typeof expected === 'function') expect(run).to.throw(expected);
        else expect(run()).to.deep.equal(expected);
      },
    }),
  };
}

const registered: EntityEvent = { type: 'EntityRegistered', data: { kind: 'artist', id: 'A', at } };
const linked: EntityEvent = { type: 'RefLinked', data: { kind: 'artist', id: 'A', source: 'catalog', external_id: '1', evidence: { rule: 'manual', value: null }, at } };

describe('entity decider', () => {
  it('registers a new entity once', () => {
    given().when({ type: 'RegisterEntity' }).then([registered]);
    given(registered).when({ type: 'RegisterEntity' }).then(Conflict);
  });

  it('links a ref once; a second link of the same ref decides nothing', () => {
    given(registered).when({ type: 'LinkRef', source: 'catalog', externalId: '1', evidence: { rule: 'manual', value: null } }).then([linked]);
    given(registered, linked).when({ type: 'LinkRef', source: 'catalog', externalId: '1', evidence: { rule: 'manual', value: null } }).then([]);
  });

  it('unlinks only a linked ref', () => {
    given(registered, linked).when({ type: 'UnlinkRef', source: 'catalog', externalId: '1' }).then([{ type: 'RefUnlinked', data: { kind: 'artist', id: 'A', source: 'catalog', external_id: '1', at } }]);
    given(registered).when({ type: 'UnlinkRef', source: 'catalog', externalId: '1' }).then(NotFound);
  });

  it('records facts only when they changed', () => {
    const observed: EntityEvent = { type: 'FactsObserved', data: { kind: 'artist', id: 'A', source: 'catalog', external_id: '1', facts: { name: 'ABBA' }, at } };
    given(registered, linked).when({ type: 'ObserveFacts', source: 'catalog', externalId: '1', facts: { name: 'ABBA' } }).then([observed]);
    given(registered, linked, observed).when({ type: 'ObserveFacts', source: 'catalog', externalId: '1', facts: { name: 'ABBA' } }).then([]);
  });

  it('compares facts by content: the log gives them back in another key order', () => {
    const facts = { name: 'ABBA', year: 1972, audio_quality: { codec: 'flac', bit_depth: 16, lossless: true } };
    const stored: EntityEvent = { type: 'FactsObserved', data: { kind: 'artist', id: 'A', source: 'catalog', external_id: '1', facts, at } };
    const reordered = { audio_quality: { lossless: true, bit_depth: 16, codec: 'flac' }, year: 1972, name: 'ABBA', cover_url: undefined };
    given(registered, linked, stored).when({ type: 'ObserveFacts', source: 'catalog', externalId: '1', facts: reordered }).then([]);
    given(registered, linked, stored).when({ type: 'ObserveFacts', source: 'catalog', externalId: '1', facts: { ...reordered, year: 1973 } }).then([
      { type: 'FactsObserved', data: { kind: 'artist', id: 'A', source: 'catalog', external_id: '1', facts: { ...reordered, year: 1973 }, at } },
    ]);
  });

  it('refuses a merge into itself, and any change to a merged-away entity', () => {
    given(registered).when({ type: 'MergeInto', targetId: 'A' }).then(Conflict);
    const merged: EntityEvent = { type: 'EntityMergedInto', data: { kind: 'artist', id: 'A', target_id: 'B', at } };
    given(registered, merged).when({ type: 'ObserveFacts', source: 'catalog', externalId: '1', facts: {} }).then(entity.MergedAway);
  });

  it('refuses commands on an unknown entity', () => {
    given().when({ type: 'LinkRef', source: 'catalog', externalId: '1', evidence: { rule: 'manual', value: null } }).then(NotFound);
  });
});

describe('ref claim decider', () => {
  const claimMeta = { kind: 'track' as const, source: 'catalog' as const, externalId: '9', now: at };
  const decide = (events: RefClaimEvent[], command: WithoutMeta<RefClaimCommand>) =>
    claim.decide(events.reduce(claim.evolve, claim.initialState()), { ...command, meta: claimMeta } as RefClaimCommand);
  const claimed = (id: string): RefClaimEvent => ({ type: 'RefClaimed', data: { kind: 'track', source: 'catalog', external_id: '9', entity_id: id, at } });

  it('gives a free ref to the first claimant and refuses the next, naming the owner', () => {
    expect(decide([], { type: 'ClaimRef', entityId: 'A' })).to.deep.equal([claimed('A')]);
    expect(decide([claimed('A')], { type: 'ClaimRef', entityId: 'A' })).to.deep.equal([]);
    expect(() => decide([claimed('A')], { type: 'ClaimRef', entityId: 'B' })).to.throw(claim.RefOwned, /belongs to A/);
  });

  it('moves a ref only from its owner, and frees it on release', () => {
    expect(decide([claimed('A')], { type: 'MoveRef', from: 'A', to: 'B' }).map((e) => e.type)).to.deep.equal(['RefReleased', 'RefClaimed']);
    expect(() => decide([claimed('A')], { type: 'MoveRef', from: 'C', to: 'B' })).to.throw(claim.RefOwned);
    const released: RefClaimEvent = { type: 'RefReleased', data: { kind: 'track', source: 'catalog', external_id: '9', entity_id: 'A', at } };
    expect(decide([claimed('A'), released], { type: 'ClaimRef', entityId: 'B' })).to.deep.equal([claimed('B')]);
  });
});
