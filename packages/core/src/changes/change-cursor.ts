import { ReverieValidationError } from '../errors/reverie-error';
import type { MemoryChangeQuery, MemoryNeighbourQuery } from '../interfaces/memory-change-feed';

export const DEFAULT_CHANGE_PAGE = 1000;
export const MAX_CHANGE_PAGE = 10_000;
export const DEFAULT_NEIGHBOURS = 8;
export const MAX_NEIGHBOURS = 100;

/**
 * A position in a change feed: the history it belongs to (`epoch`, which changes when a store's
 * history starts over) and the sequence number of the last change before it.
 */
export interface ChangePosition {
  epoch: string;
  seq: number;
}

const CURSOR_PATTERN = /^([A-Za-z0-9_-]{1,64})\.(\d{1,15})$/;

/** `epoch.seq`, the text form of a position every built-in store uses. */
export function formatChangeCursor(position: ChangePosition): string {
  return `${position.epoch}.${position.seq}`;
}

/**
 * The position a cursor names, or undefined when it is not one a built-in store wrote (a cursor
 * of another store: the caller answers with a reset). A cursor that is not a string is bad input.
 */
export function parseChangeCursor(cursor: unknown): ChangePosition | undefined {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string') {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `A change cursor is the string a previous changes() call returned as "cursor", got ${typeof cursor}.`,
      {
        details: { since: String(cursor) },
      },
    );
  }
  const match = CURSOR_PATTERN.exec(cursor);
  return match ? { epoch: match[1]!, seq: Number(match[2]) } : undefined;
}

function boundedInteger(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new ReverieValidationError('INVALID_INPUT', `${name} must be a whole number from 1 to ${max}, got ${String(value)}.`, {
      details: { [name]: String(value) },
    });
  }
  return value;
}

/** Validates a `changes()` query: INVALID_INPUT for a bad limit or a cursor that is not a string. */
export function parseChangeQuery(query: MemoryChangeQuery = {}): { since: ChangePosition | undefined; given: boolean; limit: number } {
  return {
    since: parseChangeCursor(query.since),
    given: query.since !== undefined,
    limit: boundedInteger(query.limit, 'limit', DEFAULT_CHANGE_PAGE, MAX_CHANGE_PAGE),
  };
}

/** Validates a `neighbours()` query. */
export function parseNeighbourQuery(query: MemoryNeighbourQuery = {}): { limit: number } {
  return { limit: boundedInteger(query.limit, 'limit', DEFAULT_NEIGHBOURS, MAX_NEIGHBOURS) };
}
