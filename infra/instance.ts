import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** This process among the others on one database: who holds a task lease or serves a rebuild request. */
export const instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
