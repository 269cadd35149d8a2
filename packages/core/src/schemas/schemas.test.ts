import { describe, expect, it } from 'vitest';
import { feedbackSignalSchema } from './feedback-signal';
import { memoryEntrySchema } from './memory-entry';
import { parseRecord } from './parse-record';
import { workflowExecutionSchema } from './workflow-execution';

const entry = {
  id: 'a1b2c3d4e5f6',
  content: 'Prefers metric units',
  category: 'user-preferences/units',
  tags: ['units'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  reinforcementCount: 1,
  importance: 0.5,
  metadata: {},
};

describe('record schemas', () => {
  it('accept a well-formed memory entry and refuse broken ones field by field', () => {
    expect(memoryEntrySchema.parse(entry)).toEqual(entry);
    expect(() => parseRecord(memoryEntrySchema, { ...entry, category: 'a/../b', importance: 2 }, 'memory entry')).toThrow(
      /category: invalid category.*importance/,
    );
  });

  it('tie a rating to session summaries only', () => {
    const base = { id: 'a1b2c3d4e5f6', sessionId: 's1', text: 'ok', timestamp: '2026-01-01T00:00:00.000Z' };
    expect(feedbackSignalSchema.safeParse({ ...base, kind: 'session-summary', rating: 'fair' }).success).toBe(true);
    expect(feedbackSignalSchema.safeParse({ ...base, kind: 'session-summary' }).success).toBe(false);
    expect(feedbackSignalSchema.safeParse({ ...base, kind: 'correction', rating: 'poor' }).success).toBe(false);
  });

  it('refuse a successful workflow run that reports an error', () => {
    const run = { id: 'a1b2c3d4e5f6', description: 'weekly report', success: true, timestamp: '2026-01-01T00:00:00.000Z' };
    expect(workflowExecutionSchema.safeParse(run).success).toBe(true);
    expect(workflowExecutionSchema.safeParse({ ...run, error: 'boom' }).success).toBe(false);
  });

  it('report invalid input as a ReverieError with INVALID_INPUT', () => {
    expect(() => parseRecord(memoryEntrySchema, {}, 'memory entry')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
