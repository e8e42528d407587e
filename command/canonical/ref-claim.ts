import type { Kind, RefClaimEvent, Source } from '../../shared/events/canonical.events.ts';
import { Conflict } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';

/** Who owns an external ref. A claim stream is appended at the revision read, so one claim wins. */
export interface RefClaimState {
  owner: string | null;
}

export const initialState = (): RefClaimState => ({ owner: null });

export function evolve(state: RefClaimState, event: RefClaimEvent): RefClaimState {
  switch (event.type) {
    case 'RefClaimed':
      return { owner: event.data.entity_id };
    case 'RefReleased':
      return state.owner === event.data.entity_id ? { owner: null } : state;
    default:
      return assertNever(event);
  }
}

interface Meta {
  kind: Kind;
  source: Source;
  externalId: string;
  now: string;
}

export type RefClaimCommand =
  | { type: 'ClaimRef'; entityId: string; meta: Meta }
  /** Moves the ref from one entity to another (merge); refused unless `from` owns it. */
  | { type: 'MoveRef'; from: string; to: string; meta: Meta }
  | { type: 'ReleaseRef'; entityId: string; meta: Meta };

export function decide(state: RefClaimState, command: RefClaimCommand): RefClaimEvent[] {
  const { kind, source, externalId: external_id, now: at } = command.meta;
  switch (command.type) {
    case 'ClaimRef':
      if (state.owner === command.entityId) return [];
      if (state.owner) throw new RefOwned(source, external_id, state.owner);
      return [{ type: 'RefClaimed', data: { kind, source, external_id, entity_id: command.entityId, at } }];
    case 'MoveRef':
      if (state.owner !== command.from) throw new RefOwned(source, external_id, state.owner ?? 'nobody');
      return [
        { type: 'RefReleased', data: { kind, source, external_id, entity_id: command.from, at } },
        { type: 'RefClaimed', data: { kind, source, external_id, entity_id: command.to, at } },
      ];
    case 'ReleaseRef':
      return state.owner === command.entityId ? [{ type: 'RefReleased', data: { kind, source, external_id, entity_id: command.entityId, at } }] : [];
    default:
      return assertNever(command);
  }
}

/** 409 naming the entity that already owns the ref. */
export class RefOwned extends Conflict {
  constructor(
    readonly source: string,
    readonly externalId: string,
    readonly ownerId: string,
  ) {
    super(`${source} ref ${externalId} already belongs to ${ownerId}`);
  }
}
