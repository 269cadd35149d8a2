import { createHash } from 'node:crypto';

/**
 * The first key of every dream lock: "RvDr" in ASCII. PostgreSQL keeps advisory locks taken with
 * two 32-bit keys apart from those taken with one 64-bit key (the migration lock), so this key
 * space is Reverie's dream locks wherever another application does not pick the same first key.
 */
export const DREAM_LOCK_CLASS = 0x52764472;

/**
 * The advisory lock keys of a scope's dream lock: `DREAM_LOCK_CLASS` and the first 32 bits of
 * the scope's SHA-256, as a signed integer. Two scopes whose hashes collide (about one pair in
 * 4 billion) share a lock: their cycles take turns, never run together. Pure.
 */
export function dreamLockKeys(scope: string): readonly [number, number] {
  return [DREAM_LOCK_CLASS, createHash('sha256').update(scope, 'utf8').digest().readInt32BE(0)];
}
