import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { timestampSchema } from './common';
import { conversationTurnDraftSchema } from './conversation-turn';
import { feedbackDraftSchema, feedbackSignalSchema } from './feedback-signal';
import { memoryDraftSchema, memoryEntrySchema } from './memory-entry';
import { parseRecord } from './parse-record';
import { skillDraftSchema, skillUsageDraftSchema } from './skill';
import { workflowExecutionDraftSchema, workflowExecutionSchema } from './workflow-execution';

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

describe('times a caller passes (Date or ISO string)', () => {
  const at = new Date('2026-05-04T03:02:01.000Z');
  it.each([
    ['memory draft', memoryDraftSchema, { content: 'x', createdAt: at, lastSeenAt: at }, ['createdAt', 'lastSeenAt']],
    [
      'skill draft',
      skillDraftSchema,
      { name: 'mcp/email', summary: 's', content: 'c', createdAt: at, lastUsedAt: at },
      ['createdAt', 'lastUsedAt'],
    ],
    ['skill usage draft', skillUsageDraftSchema, { skill: 'mcp/email', sessionId: 's', timestamp: at }, ['timestamp']],
    ['feedback draft', feedbackDraftSchema, { kind: 'positive', sessionId: 's', text: 't', timestamp: at }, ['timestamp']],
    ['workflow draft', workflowExecutionDraftSchema, { description: 'd', success: true, timestamp: at }, ['timestamp']],
    ['conversation turn draft', conversationTurnDraftSchema, { sessionId: 's', role: 'user', content: 'c', timestamp: at }, ['timestamp']],
  ] as const)('a %s takes a Date and yields its ISO string', (_, schema, draft, fields) => {
    const parsed = (schema as z.ZodType).parse(draft) as Record<string, unknown>;
    for (const field of fields) expect(parsed[field]).toBe('2026-05-04T03:02:01.000Z');
  });

  it('rejects an Invalid Date and a string that is no ISO timestamp', () => {
    expect(timestampSchema.safeParse(new Date('nope')).success).toBe(false);
    expect(timestampSchema.safeParse('last tuesday').success).toBe(false);
    expect(timestampSchema.parse('2026-05-04T05:02:01+02:00')).toBe('2026-05-04T05:02:01+02:00');
  });
});
