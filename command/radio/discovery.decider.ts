import type { RadioDiscoveryEvent } from '../../shared/events/radio.events.ts';
import { assertNever } from '../../shared/never.ts';

/** One discovery of one user's, stream `radiodiscovery-<id>`: dismissed or not, its album once found. */
export interface DiscoveryState {
  dismissed: boolean;
  albumTitle: string | null;
}

export const initialState = (): DiscoveryState => ({ dismissed: false, albumTitle: null });

export function evolve(state: DiscoveryState, event: RadioDiscoveryEvent): DiscoveryState {
  switch (event.type) {
    case 'RadioDiscoveryDismissed':
      return { ...state, dismissed: true };
    case 'RadioDiscoveryAlbumFound':
      return { ...state, albumTitle: event.data.album_title };
    default:
      return assertNever(event);
  }
}

interface Meta {
  discoveryId: string;
  now: string;
}

export type DiscoveryCommand =
  | { type: 'DismissDiscovery'; username: string; meta: Meta }
  | { type: 'RecordDiscoveryAlbum'; albumTitle: string; albumId: string | null; source: 'scrobbler' | 'catalog'; meta: Meta };

/** Dismissing twice, or finding an album already found, decides nothing. */
export function decide(state: DiscoveryState, command: DiscoveryCommand): RadioDiscoveryEvent[] {
  const { discoveryId: discovery_id, now: at } = command.meta;
  switch (command.type) {
    case 'DismissDiscovery':
      return state.dismissed ? [] : [{ type: 'RadioDiscoveryDismissed', data: { discovery_id, username: command.username, at } }];
    case 'RecordDiscoveryAlbum':
      return state.albumTitle !== null
        ? []
        : [{ type: 'RadioDiscoveryAlbumFound', data: { discovery_id, album_title: command.albumTitle, album_id: command.albumId, source: command.source, at } }];
    default:
      return assertNever(command);
  }
}
