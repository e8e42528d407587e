import { createHash } from 'node:crypto';
import { ulid } from 'ulid';

/** New entity and task ids: ULIDs, sortable by creation time. */
export const newId = (): string => ulid();

/** A stable id from natural-key parts: re-importing the same thing yields the same id. */
export function hashedId(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest('hex').slice(0, 32);
}

export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
