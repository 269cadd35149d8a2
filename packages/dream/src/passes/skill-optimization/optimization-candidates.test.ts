import { describe, expect, it } from 'vitest';
import type { FeedbackSignal, Skill, SkillUsage } from '@reverie/core';
import { MAX_FAILURE_SIGNALS, selectOptimizationCandidates } from './optimization-candidates';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const OLD = '2026-04-01T00:00:00.000Z';
const LONG = 'A thorough procedure. '.repeat(20);

function skill(name: string, content = LONG, createdAt = OLD): Skill {
  return { name, summary: `About ${name}`, content, seeAlso: [], createdAt, updatedAt: createdAt, lastUsedAt: null };
}
function used(name: string, sessionId: string): SkillUsage {
  return { skill: name, sessionId, timestamp: '2026-05-30T10:00:00.000Z' };
}
let n = 0;
function signal(sessionId: string, kind: FeedbackSignal['kind'], text: string, rating?: FeedbackSignal['rating']): FeedbackSignal {
  n += 1;
  return {
    id: n.toString(16).padStart(12, '0'),
    kind,
    sessionId,
    text,
    ...(rating ? { rating } : {}),
    timestamp: `2026-05-30T10:${String(n % 60).padStart(2, '0')}:00.000Z`,
  };
}

const options = { now: NOW, sparseChars: 200, sparseMinAgeDays: 7, protectedSkills: [] as string[], maxSkillsPerRun: 20 };

describe('selectOptimizationCandidates (SPEC D10)', () => {
  it('marks skills used in sessions with a correction or a poor/fair summary as at risk, with that context', () => {
    const skills = [skill('a/corrected'), skill('b/poor'), skill('c/fine'), skill('d/good-summary')];
    const usages = [
      used('a/corrected', 's1'),
      used('b/poor', 's2'),
      used('b/poor', 's3'),
      used('c/fine', 's4'),
      used('d/good-summary', 's5'),
      used('ghost/skill', 's1'),
    ];
    const feedback = [
      signal('s1', 'correction', 'No, the invoice needs VAT'),
      signal('s1', 'positive', 'thanks'),
      signal('s1', 'negative', 'That took too long'),
      signal('s2', 'session-summary', 'The deploy failed twice', 'poor'),
      signal('s3', 'session-summary', 'Partly done', 'fair'),
      signal('s4', 'positive', 'great'),
      signal('s5', 'session-summary', 'Fine', 'good'),
    ];

    const selection = selectOptimizationCandidates(skills, usages, feedback, options);

    expect(selection.candidates.map((c) => [c.skill.name, c.failedSessions, c.failures.map((f) => f.text), c.sparse])).toEqual([
      ['b/poor', ['s2', 's3'], ['Partly done', 'The deploy failed twice'], false],
      ['a/corrected', ['s1'], ['That took too long', 'No, the invoice needs VAT'], false],
    ]);
    expect(selection).toMatchObject({ atRisk: 2, sparse: 0, deferred: 0, protectedSkipped: 0 });
  });

  it('marks short skills older than the minimum age as sparse, after the at-risk ones, and flags an at-risk skill that is also sparse', () => {
    const skills = [
      skill('z/short-old', 'Too short.'),
      skill('y/short-new', 'Too short.', '2026-05-30T00:00:00.000Z'),
      skill('x/short-at-risk', 'Short.'),
      skill('w/long', LONG),
      skill('v/exactly-200', 'x'.repeat(200)),
    ];
    const selection = selectOptimizationCandidates(skills, [used('x/short-at-risk', 's1')], [signal('s1', 'correction', 'wrong')], options);
    expect(selection.candidates.map((c) => [c.skill.name, c.failedSessions.length > 0, c.sparse])).toEqual([
      ['x/short-at-risk', true, true],
      ['z/short-old', false, true],
    ]);
    expect(selection).toMatchObject({ atRisk: 1, sparse: 1 });
  });

  it('leaves protected skills out entirely and counts them', () => {
    const skills = [skill('mcp/email', 'short'), skill('mcp/calendar'), skill('notes/short', 'short')];
    const selection = selectOptimizationCandidates(skills, [used('mcp/calendar', 's1')], [signal('s1', 'correction', 'wrong')], {
      ...options,
      protectedSkills: ['mcp/*'],
    });
    expect(selection.candidates.map((c) => c.skill.name)).toEqual(['notes/short']);
    expect(selection.protectedSkipped).toBe(2);
  });

  it('caps the run at maxSkillsPerRun, at-risk first, and keeps the newest failure signals', () => {
    const skills = [skill('a/risk'), skill('b/sparse', 'short'), skill('c/sparse', 'short')];
    const feedback = Array.from({ length: MAX_FAILURE_SIGNALS + 3 }, (_, i) => signal('s1', 'correction', `fix ${i}`));
    const selection = selectOptimizationCandidates(skills, [used('a/risk', 's1')], feedback, { ...options, maxSkillsPerRun: 2 });
    expect(selection.candidates.map((c) => c.skill.name)).toEqual(['a/risk', 'b/sparse']);
    expect(selection.deferred).toBe(1);
    expect(selection.candidates[0]!.failures).toHaveLength(MAX_FAILURE_SIGNALS);
    expect(selection.candidates[0]!.failures[0]!.text).toBe(`fix ${MAX_FAILURE_SIGNALS + 2}`);
  });

  it('finds nothing when nothing failed and nothing is sparse', () => {
    expect(
      selectOptimizationCandidates([skill('a/fine')], [used('a/fine', 's1')], [signal('s1', 'positive', 'ok')], options).candidates,
    ).toEqual([]);
  });
});
