import { expect } from 'chai';
import * as entity from '../../../../command/canonical/entity.decider.ts';
import type { EntityCommand } from '../../../../command/canonical/entity.decider.ts';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import type { EntityEvent } from '../../../../shared/events/canonical.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const fold = (...events: EntityEvent[]) => events.reduce(entity.evolve, entity.initialState());
const decideOn = (id: string, state: entity.EntityState, command: WithoutMeta<EntityCommand>) =>
  entity.decide(state, { ...command, meta: { kind: 'artist', id, now: at } } as EntityCommand);

const ref = (external_id: string) => ({ source: 'catalog' as const, external_id });
const registered = (id: string): EntityEvent => ({ type: 'EntityRegistered', data: { kind: 'artist', id, at } });
const linked = (id: string, external_id: string): EntityEvent => ({ type: 'RefLinked', data: { kind: 'artist', id, ...ref(external_id), evidence: { rule: 'isrc', value: 'x' }, at } });

describe('entity decider: undoing a merge', () => {
  const source = fold(registered('S'), linked('S', '1'), { type: 'EntityMergedInto', data: { kind: 'artist', id: 'S', target_id: 'T', at } });
  const target = fold(
    registered('T'),
    linked('T', '0'),
    { type: 'EntityAbsorbed', data: { kind: 'artist', id: 'T', source_id: 'S', refs: [ref('1')], at } },
    linked('T', '2'),
  );

  it('given a merge and a ref linked to the target since, then only the refs the source brought return, with their evidence of before', () => {
    expect(entity.refsBroughtBy(target, 'S')).to.deep.equal([ref('1')]);
    expect(entity.refsReturning(source, target, 'S')).to.deep.equal([{ ...ref('1'), evidence: { rule: 'isrc', value: 'x' } }]);
  });

  it('when the target lets go, then EntityUnabsorbed names those refs; a source it never absorbed is refused', () => {
    expect(decideOn('T', target, { type: 'Unabsorb', sourceId: 'S', enriched: [] })).to.deep.equal([
      { type: 'EntityUnabsorbed', data: { kind: 'artist', id: 'T', source_id: 'S', refs: [ref('1')], enriched: [], at } },
    ]);
    expect(() => decideOn('T', target, { type: 'Unabsorb', sourceId: 'X', enriched: [] })).to.throw(entity.NotMergedInto);
  });

  it('when the source is unmerged, then it stands again with its refs; unmerging from another target or twice is refused', () => {
    const refs = entity.refsReturning(source, target, 'S');
    const events = decideOn('S', source, { type: 'Unmerge', targetId: 'T', refs, returning: [] });
    expect(events).to.deep.equal([{ type: 'EntityUnmerged', data: { kind: 'artist', id: 'S', target_id: 'T', refs, returning: [], at } }]);
    const after = events.reduce(entity.evolve, source);
    expect(after.status).to.equal('active');
    expect([...after.refs.values()]).to.deep.equal([ref('1')]);
    expect(() => decideOn('S', source, { type: 'Unmerge', targetId: 'X', refs, returning: [] })).to.throw(entity.NotMergedInto);
    expect(() => decideOn('S', after, { type: 'Unmerge', targetId: 'T', refs, returning: [] })).to.throw(entity.NotMergedInto);
  });
});
