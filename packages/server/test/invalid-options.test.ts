import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Bm25Index, InMemoryWorkingMemory, isReverieError, ManualClock, resolveDecayOptions } from '@reverie/core';
import {
  ArchiveRetentionPass,
  EpisodeExtractionPass,
  ImportanceDecayPass,
  MemoryConsolidationPass,
  PreferenceInferencePass,
  PromotionPass,
  RecallSignalsPass,
  SkillConsolidationPass,
  SkillGapPass,
  SkillOptimizationPass,
  WorkflowFailureAnalysisPass,
} from '@reverie/dream';
import { ModelGateway } from '@reverie/dream/internal';
import { FileDreamStateStore, FileMemoryStore, FileWorkingMemory } from '@reverie/file-store';
import { PostgresDreamStateStore, PostgresMemoryStore } from '@reverie/postgres';
import { createReverie, withReverie } from 'reverie';
import { parseServerOptions } from '../src/options/server-options';
import { memoryOf } from '../src/operations/services';

// SPEC D14: wherever options are refused — core, the file and PostgreSQL stores, every pass, the
// engine, the builder, the middleware, the agent tools, the server — the error is INVALID_OPTIONS
// with `details.issues` as [{ path, message }] (the CLI's are in packages/cli/test).
const dataPath = mkdtempSync(join(tmpdir(), 'reverie-invalid-options-'));
afterAll(() => rmSync(dataPath, { recursive: true, force: true }));
const clock = new ManualClock('2026-06-01T00:00:00.000Z');

function refusal(attempt: () => unknown): { message: string; issues: Array<{ path: string; message: string }> } {
  try {
    attempt();
  } catch (error) {
    expect(isReverieError(error, 'INVALID_OPTIONS')).toBe(true);
    const { details, message } = error as Error & { details: Record<string, unknown> };
    expect(Object.keys(details)).toEqual(['issues']);
    return { message, issues: details.issues as Array<{ path: string; message: string }> };
  }
  throw new Error('the options were accepted');
}

describe('every INVALID_OPTIONS error lists its issues as { path, message }', () => {
  const cases: Array<[string, () => unknown, string[]]> = [
    ['decay options (core)', () => resolveDecayOptions({ floor: 2 }), ['floor']],
    ['the BM25 index (core)', () => new Bm25Index({ analysis: 'fuzzy' as never }), ['analysis']],
    ['in-memory working memory (core)', () => new InMemoryWorkingMemory({ maxEntriesPerNamespace: 0 }), ['maxEntriesPerNamespace']],
    ['a PostgreSQL store without a client', () => new PostgresMemoryStore({ scope: 'default' } as never), ['client']],
    ['the PostgreSQL dream state', () => new PostgresDreamStateStore({ client: undefined, scope: 'default' } as never), ['client']],
    ['a file store', () => new FileMemoryStore({ dataPath: '' }), ['dataPath']],
    ['working memory', () => new FileWorkingMemory({ dataPath, maxEntriesPerNamespace: -1 } as never), ['maxEntriesPerNamespace']],
    ['the file dream state', () => new FileDreamStateStore({ dataPath: '', clock }), ['dataPath']],
    ['the dream lock', () => new FileDreamStateStore({ dataPath, clock, staleLockMinutes: 0 }), ['staleLockMinutes']],
    ['memory consolidation', () => new MemoryConsolidationPass({ deletionCap: -1 } as never), ['deletionCap']],
    ['archive retention', () => new ArchiveRetentionPass({ retentionDays: -1 }), ['retentionDays']],
    ['episode extraction', () => new EpisodeExtractionPass({ maxTurnsPerRun: 0 }), ['maxTurnsPerRun']],
    ['importance decay', () => new ImportanceDecayPass({ write: 'yes' } as never), ['write']],
    ['preference inference', () => new PreferenceInferencePass({ maxTurnsPerRun: 0 }), ['maxTurnsPerRun']],
    ['skill consolidation', () => new SkillConsolidationPass({ usageWindowDays: 0 }), ['usageWindowDays']],
    ['skill gap', () => new SkillGapPass({ maxTurnsPerRun: 0 }), ['maxTurnsPerRun']],
    ['skill optimization', () => new SkillOptimizationPass({ windowDays: 0 }), ['windowDays']],
    ['workflow failure analysis', () => new WorkflowFailureAnalysisPass({ windowDays: 0 }), ['windowDays']],
    ['recall signals', () => new RecallSignalsPass({ recencyHalfLifeDays: 0 }), ['recencyHalfLifeDays']],
    ['promotion', () => new PromotionPass({ minScore: 2 }), ['minScore']],
    ['promotion, its recall-signal options', () => new PromotionPass({}, { recencyHalfLifeDays: 0 }), ['recencyHalfLifeDays']],
    ['the model gateway', () => new ModelGateway({ maxRetries: -1 } as never), ['maxRetries']],
    [
      'the builder',
      () =>
        createReverie({ dataPath, clock })
          .withMemory({ nope: 1 } as never)
          .build(),
      ['withMemory'],
    ],
    ['the middleware', () => withReverie({} as never, { reverie: undefined as never, sessionId: 's1' }), ['reverie']],
    ['the agent tools without their store', () => createReverie({ dataPath, clock }).withSkills().build().tools.memory(), ['withMemory']],
    [
      'the dreaming options',
      () =>
        createReverie({ dataPath, clock })
          .withMemory()
          .withDreaming({ gates: { minHours: -1 } } as never)
          .build(),
      ['withDreaming'],
    ],
    [
      'a served operation the Reverie was not built for',
      () => memoryOf(createReverie({ dataPath, clock }).withSkills().build()),
      ['withMemory'],
    ],
    ['the server', () => parseServerOptions({ port: -1 }), ['port']],
    ['a server beyond loopback without a token', () => parseServerOptions({ host: '0.0.0.0' }), ['token']],
  ];

  it.each(cases)('%s', (_name, attempt, paths) => {
    const { message, issues } = refusal(attempt);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
      expect(typeof issue.path).toBe('string');
      expect(issue.message).not.toBe('');
    }
    for (const path of paths) expect(issues.some((issue) => issue.path === path || issue.path.startsWith(`${path}.`))).toBe(true);
    expect(message).not.toBe('');
  });
});
