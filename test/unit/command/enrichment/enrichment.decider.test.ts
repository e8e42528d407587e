import { expect } from 'chai';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import * as enrichment from '../../../../command/enrichment/enrichment.decider.ts';
import type { EnrichmentCommand } from '../../../../command/enrichment/enrichment.decider.ts';
import type { EntityEvent } from '../../../../shared/events/canonical.events.ts';
import type { EntityEnrichmentEvent } from '../../../../shared/events/enrichment.events.ts';
import { NotFound } from '../../../../shared/errors.ts';

type Event = EntityEvent | EntityEnrichmentEvent;
const at = '2026-01-01T00:00:00.000Z';
const meta = { kind: 'artist' as const, id: 'A', now: at };
const ref = { source: 'metabase' as const, external_id: 'mb-1' };

function given(...events: Event[]) {
  const state = events.reduce(enrichment.evolve, enrichment.initialState());
  return {
    when: (command: WithoutMeta<EnrichmentCommand>) => ({
      then: (expected: Event[] | (new (...a: any[]) => Error)) => {
        const run = () => enrichment.decide(state, { ...command, meta } as EnrichmentCommand);
        if (typeof expected === 'function') expect(run).to.throw(expected);
        else expect(run()).to.deep.equal(expected);
      },
    }),
  };
}

const registered: Event = { type: 'EntityRegistered', data: { kind: 'artist', id: 'A', at } };
const enriched = (facts: object): Event => ({ type: 'EntityEnriched', data: { kind: 'artist', id: 'A', source: 'metabase', ref, facts, at } });
const failed: Event = { type: 'EnrichmentFailed', data: { kind: 'artist', id: 'A', source: 'hydrate_mb', error: 'boom', at } };

describe('enrichment decider', () => {
  it('enriches an entity, and the same facts again decide nothing, whatever their key order', () => {
    const facts = { alt_names: ['Abba'], external_links: [{ category: 'wiki', type: 'wikidata', url: 'https://x' }] };
    given(registered).when({ type: 'Enrich', source: 'metabase', ref, facts }).then([enriched(facts)]);
    given(registered, enriched(facts)).when({ type: 'Enrich', source: 'metabase', ref, facts: { external_links: facts.external_links } }).then([]);
    given(registered, enriched(facts)).when({ type: 'Enrich', source: 'metabase', ref, facts: { alt_names: ['Björn'] } }).then([enriched({ alt_names: ['Björn'] })]);
  });

  it('enriches again once the ref the facts came from was unlinked and linked anew', () => {
    const unlinked: Event = { type: 'RefUnlinked', data: { kind: 'artist', id: 'A', source: 'metabase', external_id: 'mb-1', at } };
    given(registered, enriched({ alt_names: ['x'] }), unlinked).when({ type: 'Enrich', source: 'metabase', ref, facts: { alt_names: ['x'] } }).then([enriched({ alt_names: ['x'] })]);
  });

  it('empty facts on a new layer decide nothing', () => {
    given(registered).when({ type: 'Enrich', source: 'metabase', ref, facts: {} }).then([]);
  });

  it('files a failure every time, and a success clears only an open one', () => {
    given(registered).when({ type: 'RecordFailure', source: 'hydrate_mb', error: 'boom' }).then([failed]);
    given(registered).when({ type: 'RecordSuccess', source: 'hydrate_mb' }).then([]);
    const recovered: Event = { type: 'EnrichmentRecovered', data: { kind: 'artist', id: 'A', source: 'hydrate_mb', at } };
    given(registered, failed).when({ type: 'RecordSuccess', source: 'hydrate_mb' }).then([recovered]);
    given(registered, failed, recovered).when({ type: 'RecordSuccess', source: 'hydrate_mb' }).then([]);
    given(registered, failed).when({ type: 'RecordSuccess', source: 'isrc_link' }).then([]);
  });

  it('refuses unknown and merged-away entities', () => {
    given().when({ type: 'Enrich', source: 'metabase', ref, facts: { alt_names: ['x'] } }).then(NotFound);
    const merged: Event = { type: 'EntityMergedInto', data: { kind: 'artist', id: 'A', target_id: 'B', at } };
    given(registered, merged).when({ type: 'RecordFailure', source: 'hydrate_mb', error: 'x' }).then(enrichment.EntityGone);
  });
});
