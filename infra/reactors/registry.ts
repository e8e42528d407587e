import { favoritesPlaylistReactor } from '../../command/mediaserver/favorites-playlist.reactor.ts';
import type { Reactor } from './reactor.ts';

/** Every reactor of the service; they run in the worker role, beside the tasks. */
export const reactors: Reactor[] = [favoritesPlaylistReactor];
