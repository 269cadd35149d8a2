import { createHmac, randomBytes } from 'node:crypto';
import { type ILongTermMemory, type MemoryEntry, newId } from '@reverie/core';
import { z } from 'zod';
import { termsOf } from './forget-selector';

/** Where the records of what was forgotten live: Reverie's own category, never recalled or dreamt over. */
export const FORGOTTEN_CATEGORY = '_system/forgotten';

const hash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * SPEC B14: what a forget leaves behind to recognise the forgotten facts, holding no text: a
 * random salt and, per forgotten fact (an entry's wording, a `text` or a `subject`), the keyed
 * hash (HMAC-SHA-256 under the salt) of each of its terms (`termsOf`).
 */
export const forgottenRecordSchema = z.object({
  schemaVersion: z.literal(1),
  salt: z.string().regex(/^[0-9a-f]{32}$/),
  facts: z.array(z.array(hash).min(1)),
  /**
   * An erasure under way (`mode: 'erase'`): the ids of the entries it erases (never their text)
   * and how far it got — `scrub` (the other places are being rewritten; the entries are still
   * there, the source of the text looked for) or `delete` (every other place is done; the entries
   * are being deleted). Finished by `recover()` after a crash; absent once the erasure is whole.
   */
  erasing: z.object({ ids: z.array(z.string()), phase: z.enum(['scrub', 'delete']) }).optional(),
  /** The dream runs an erasure rewrote (their archives held the text): undo refuses them. */
  erasedRuns: z.array(z.string()).optional(),
});
export type ForgottenRecord = z.infer<typeof forgottenRecordSchema>;

/** The keyed hash of one term under `salt`. Pure. */
export function keyedTermHash(salt: string, term: string): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(term, 'utf8').digest('hex');
}

/** The record of facts (texts) forgotten together, under a fresh salt; texts with no term are left out. */
export function forgottenRecord(texts: readonly string[], salt = randomBytes(16).toString('hex')): ForgottenRecord {
  const facts = texts.map((text) => termsOf(text).map((term) => keyedTermHash(salt, term))).filter((terms) => terms.length > 0);
  return { schemaVersion: 1, salt, facts };
}

/**
 * True when `content` states a fact of `record`: every term of the fact is among the content's
 * terms (in any letter case, in any form of the word). Pure.
 */
export function statesForgottenFact(record: ForgottenRecord, content: string): boolean {
  const terms = new Set(termsOf(content).map((term) => keyedTermHash(record.salt, term)));
  return record.facts.some((fact) => fact.every((term) => terms.has(term)));
}

/** The `_system/forgotten` entry that keeps `record`. */
export function forgottenRecordDraft(record: ForgottenRecord, now: Date): MemoryEntry {
  const at = now.toISOString();
  return {
    id: newId(),
    content: JSON.stringify(record),
    category: FORGOTTEN_CATEGORY,
    tags: [],
    createdAt: at,
    updatedAt: at,
    lastSeenAt: at,
    reinforcementCount: 1,
    importance: 0,
    metadata: {},
  };
}

/** The record a `_system/forgotten` entry keeps, or undefined when its content is not one (it then refuses nothing). Pure. */
export function parseForgottenEntry(entry: Pick<MemoryEntry, 'category' | 'content'>): ForgottenRecord | undefined {
  if (entry.category !== FORGOTTEN_CATEGORY) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(entry.content);
  } catch {
    return undefined;
  }
  const parsed = forgottenRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The facts forgotten in one memory store, read from its `_system/forgotten` entries: what the
 * dream engine (`DreamServices.forgotten`) and the fact extraction ask before they save a new
 * entry. An entry that does not parse is skipped (it cannot be recognised, so it refuses nothing).
 */
export class ForgottenFacts {
  constructor(private readonly memory: ILongTermMemory) {}

  /** The records as stored now. */
  async records(): Promise<ForgottenRecord[]> {
    const entries = await this.memory.list({ category: FORGOTTEN_CATEGORY });
    return entries.flatMap((entry) => parseForgottenEntry(entry) ?? []);
  }

  /** A test for the facts forgotten so far: true when a content states one of them. */
  async matcher(): Promise<(content: string) => boolean> {
    const records = await this.records();
    if (records.length === 0) return () => false;
    return (content) => records.some((record) => statesForgottenFact(record, content));
  }
}
