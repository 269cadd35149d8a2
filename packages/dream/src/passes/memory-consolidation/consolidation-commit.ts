import type { MemoryEntry } from '@reverie/core';
import { consolidationCursorSchema, fingerprintChanges, fingerprintsSchema } from '@reverie/dream-state';
import { z } from 'zod';
import type { DreamServices } from '../../engine/dream-types';
import { advanceCursor, consolidationCursorOf, wordingFingerprint } from './consolidation-cursor';

/**
 * Advances the cursor past what the applied plan considered, records the pass's own writes
 * that landed, and keeps the plan's retry queue. Reads the cursor afresh: when a saved plan is
 * applied after another run moved it, the cursor still never goes backwards.
 */
export async function commitConsolidation(services: DreamServices, pass: string, data: unknown): Promise<void> {
  const cursorFile = consolidationCursorOf(services.state.cursors, pass);
  const cursor = await cursorFile.read();
  const prepass = prepassCommitSchema.safeParse(data);
  if (prepass.success) {
    await cursorFile.write(advanceCursor(cursor, { written: [], prepass: prepass.data.prepass }), cursor);
    return;
  }
  const { through, feedback, seen, retry, ownWrites, feed } = consolidationCommitSchema.parse(data);
  const written: MemoryEntry[] = [];
  for (const entry of ownWrites) {
    const stored = await services.memory?.get(entry.id);
    if (stored && sameWording(stored, entry)) written.push(stored);
  }
  const updated = advanceCursor(cursor, { through, feedback, retry, written, feed });
  const fingerprints = seen.fingerprints ?? fingerprintsOf(seen.entries ?? []);
  const changes = fingerprintChanges(cursor.seen, { fingerprints, ...(seen.gone ? { gone: seen.gone } : {}) });
  await cursorFile.write(updated, cursor, { changes, ...(seen.live ? { live: new Set(seen.live) } : {}) });
}

const wordingSchema = z.object({ id: z.string(), content: z.string(), category: z.string(), tags: z.array(z.string()) });
type Wording = z.infer<typeof wordingSchema>;

/** What the cursor keeps of an entry: the wording the model saw. */
export function wording(entry: MemoryEntry): Wording {
  return { id: entry.id, content: entry.content, category: entry.category, tags: entry.tags };
}

/** Entry id → the fingerprint of its wording: what the cursor records as seen (a plan holds these, not the wordings). */
export function fingerprintsOf(entries: ReadonlyArray<Pick<MemoryEntry, 'id' | 'content' | 'category' | 'tags'>>): Record<string, string> {
  return Object.fromEntries(entries.map((entry) => [entry.id, wordingFingerprint(entry)]));
}

/** What `commit` needs of a plan to move the cursor (see `advanceCursor`, `nextRetries`). */
const consolidationCommitSchema = z.object({
  through: consolidationCursorSchema.shape.entries,
  feedback: consolidationCursorSchema.shape.feedback,
  feed: z.string().optional(),
  /**
   * `fingerprints`: entry id → the fingerprint of the wording considered (plans written before
   * held the wordings themselves, `entries`); `live`: every live id (the run listed them);
   * `gone`: the ids a change feed reported deleted.
   */
  seen: z.object({
    fingerprints: fingerprintsSchema.optional(),
    entries: z.array(wordingSchema).optional(),
    live: z.array(z.string()).optional(),
    gone: z.array(z.string()).optional(),
  }),
  retry: consolidationCursorSchema.shape.retry,
  ownWrites: z.array(wordingSchema),
});
export type ConsolidationCommit = z.input<typeof consolidationCommitSchema>;

/** What `commit` needs when no model ran: where the pre-pass left the change feed. */
const prepassCommitSchema = z.object({ prepass: z.string() }).strict();
export type PrepassCommit = z.input<typeof prepassCommitSchema>;

/** True when the stored entry still reads as the pass wrote it (nobody changed it since). */
function sameWording(stored: MemoryEntry, written: Wording): boolean {
  return (
    stored.content === written.content &&
    stored.category === written.category &&
    stored.tags.length === written.tags.length &&
    stored.tags.every((tag, index) => tag === written.tags[index])
  );
}
