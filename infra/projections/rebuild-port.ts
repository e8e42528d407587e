import type { RebuildProgress } from './rebuild-requests.ts';

/**
 * Rebuilds read models for a task (`id`): in this process's runner on the embedded database, through
 * a request to whichever process runs the projections on PostgreSQL. Resolves with the events replayed.
 */
export type RebuildReadModels = (id: string, names: string[], onProgress: (p: RebuildProgress) => void, signal: AbortSignal) => Promise<number>;
