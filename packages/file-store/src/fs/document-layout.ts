import type { ZodType } from 'zod';

/** How a collection names and files its records. */
export interface DocumentLayout<T> {
  /** What the records are, for messages ("memory entry", "skill"). */
  what: string;
  schema: ZodType<T>;
  keyOf(record: T): string;
  /** Path of the record's file relative to the collection root, with "/" separators. */
  pathOf(record: T): string;
  /** Orders two copies of one key found on disk (after a crash mid-move): the newer wins. */
  isNewer(a: T, b: T): boolean;
}

/** Told about every change, whether this process made it or another one did. */
export interface CollectionListener<T> {
  /**
   * Throws when the listener could not take `record` in (its text cannot be indexed). Called
   * before a record is written, so such a write fails with nothing on disk.
   */
  check?(record: T): void;
  /**
   * Takes a record in. When it throws, it must have changed nothing: a record read from disk
   * is then quarantined and the collection serves the others.
   */
  onPut(record: T, previous: T | undefined): void;
  onDelete(record: T): void;
}
