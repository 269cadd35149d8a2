import { memoryEntrySchema, type MemoryEntry, type Skill, skillSchema } from '@reverie/core';
import { z } from 'zod';

/**
 * One change a pass wants, as data. Passes never write to stores themselves: they return
 * operations, and the engine archives, journals and applies them (saves before deletes), which
 * is what makes every run crash-safe and reversible (SPEC B2, O8).
 *
 * `expectUpdatedAt` is the `updatedAt` the pass read (null: the record must not exist yet). A
 * record changed since is not clobbered: the operation is skipped and reported (SPEC B3).
 */
export type DreamOperation =
  | { op: 'memory.save'; entry: MemoryEntry; expectUpdatedAt: string | null; reason: string }
  | { op: 'memory.delete'; id: string; expectUpdatedAt: string; reason: string }
  | { op: 'skill.save'; skill: Skill; expectUpdatedAt: string | null; reason: string }
  | { op: 'skill.delete'; name: string; expectUpdatedAt: string; reason: string }
  | { op: 'conversation-log.clear'; throughSeq: number; reason: string };

export const dreamOperationSchema: z.ZodType<DreamOperation> = z.discriminatedUnion('op', [
  z.object({ op: z.literal('memory.save'), entry: memoryEntrySchema, expectUpdatedAt: z.string().nullable(), reason: z.string() }),
  z.object({ op: z.literal('memory.delete'), id: z.string(), expectUpdatedAt: z.string(), reason: z.string() }),
  z.object({ op: z.literal('skill.save'), skill: skillSchema, expectUpdatedAt: z.string().nullable(), reason: z.string() }),
  z.object({ op: z.literal('skill.delete'), name: z.string(), expectUpdatedAt: z.string(), reason: z.string() }),
  z.object({ op: z.literal('conversation-log.clear'), throughSeq: z.number(), reason: z.string() }),
]);
