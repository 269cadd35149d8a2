import type { Skill } from '@reverie/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleSkillOperations, deletionCap } from './assemble-skill-operations';
import type { AcceptedSave, SkillCallReview } from './review-skill-reply';
import type { SkillProfile } from './skill-profile';

const NOW = new Date('2026-06-01T12:00:00.000Z');

function profile(name: string, dates: { createdAt?: string; lastUsedAt?: string | null } = {}, seeAlso: string[] = []): SkillProfile {
  const createdAt = dates.createdAt ?? '2026-01-01T00:00:00.000Z';
  const skill: Skill = {
    name,
    summary: name,
    content: `About ${name}`,
    seeAlso,
    createdAt,
    updatedAt: createdAt,
    lastUsedAt: dates.lastUsedAt ?? null,
  };
  return { skill, uses: 0, sparse: false, protected: false, truncated: false };
}

function merge(name: string, target: SkillProfile | undefined, sources: SkillProfile[], call = 1): AcceptedSave {
  return {
    call,
    position: 1,
    kind: 'merge',
    name,
    summary: 'Merged',
    content: 'Merged content.',
    seeAlso: [],
    givenSeeAlso: false,
    target,
    sources,
  };
}

const review = (call: number, saves: AcceptedSave[], deletions: SkillProfile[] = []): SkillCallReview => ({
  call,
  saves,
  deletions,
  refusals: [],
  rejected: false,
});

describe('deletion cap', () => {
  it('is the share of the library rounded down, at least one unless the share is 0', () => {
    expect(deletionCap(0.25, 8)).toBe(2);
    expect(deletionCap(0.25, 2)).toBe(1);
    expect(deletionCap(0, 100)).toBe(0);
    expect(deletionCap(1, 5)).toBe(5);
  });
});

describe('assembleSkillOperations (SPEC D9)', () => {
  it('gives a merged skill the earliest createdAt and latest lastUsedAt of its sources and target (property)', () => {
    const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2026, 4, 1) }).map((ms) => new Date(ms).toISOString());
    fc.assert(
      fc.property(
        fc.array(fc.record({ createdAt: instant, lastUsedAt: fc.option(instant, { nil: null }) }), { minLength: 2, maxLength: 6 }),
        (dates) => {
          const profiles = dates.map((date, index) => profile(`s${index}`, date));
          const [target, ...sources] = profiles;
          const plan = assembleSkillOperations({
            profiles,
            reviews: [review(1, [merge('s0', target, sources)])],
            maxDeleteShare: 1,
            now: NOW,
          });
          const saved = plan.operations[0];
          if (saved?.op !== 'skill.save') throw new Error('no save');
          const created = Math.min(...dates.map((date) => Date.parse(date.createdAt)));
          const used = dates
            .map((date) => date.lastUsedAt)
            .filter((at): at is string => at !== null)
            .map(Date.parse);
          expect(Date.parse(saved.skill.createdAt)).toBe(created);
          expect(saved.skill.lastUsedAt === null ? null : Date.parse(saved.skill.lastUsedAt)).toBe(
            used.length === 0 ? null : Math.max(...used),
          );
          expect(plan.operations.filter((operation) => operation.op === 'skill.delete')).toHaveLength(sources.length);
        },
      ),
    );
  });

  it('refuses a later call that creates a skill of the same new name, keeping its sources', () => {
    const profiles = ['a', 'b', 'c', 'd'].map((name) => profile(name));
    const plan = assembleSkillOperations({
      profiles,
      reviews: [
        review(1, [merge('new/one', undefined, [profiles[0]!, profiles[1]!], 1)]),
        review(2, [merge('new/one', undefined, [profiles[2]!, profiles[3]!], 2)]),
      ],
      maxDeleteShare: 1,
      now: NOW,
    });
    expect(plan.refusals).toEqual([
      'call 2: toSave item 1 ("new/one") refused: call 1 already saves a new skill with that name; its sources stay ("c", "d")',
    ]);
    expect(plan.operations.map((operation) => (operation.op === 'skill.delete' ? operation.name : operation.op))).toEqual([
      'skill.save',
      'a',
      'b',
    ]);
  });
});
