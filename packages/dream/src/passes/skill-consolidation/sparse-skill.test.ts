import type { Skill } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { isSparseSkill } from './sparse-skill';

const NOW = new Date('2026-06-01T12:00:00.000Z');

function skill(name: string, content: string, createdAt = '2026-01-01T00:00:00.000Z'): Skill {
  return { name, summary: `About ${name}`, content, seeAlso: [], createdAt, updatedAt: createdAt, lastUsedAt: null };
}

describe('sparse mark (SPEC D9)', () => {
  const rule = { sparseChars: 200, sparseMinAgeDays: 7 };
  it('marks short skills older than the minimum age only', () => {
    expect(isSparseSkill(skill('a', 'short', '2026-05-01T00:00:00.000Z'), NOW, rule)).toBe(true);
    expect(isSparseSkill(skill('a', 'x'.repeat(200), '2026-05-01T00:00:00.000Z'), NOW, rule)).toBe(false);
    expect(isSparseSkill(skill('a', 'x'.repeat(199), '2026-05-01T00:00:00.000Z'), NOW, rule)).toBe(true);
    expect(isSparseSkill(skill('a', 'short', '2026-05-30T00:00:00.000Z'), NOW, rule)).toBe(false);
    expect(isSparseSkill(skill('a', 'short', '2026-05-25T12:00:00.000Z'), NOW, rule)).toBe(false);
    expect(isSparseSkill(skill('a', 'short', '2026-05-25T11:59:59.999Z'), NOW, rule)).toBe(true);
  });

  it('does not count surrounding whitespace as content', () => {
    expect(isSparseSkill(skill('a', `  ${'x'.repeat(150)}\n${' '.repeat(100)}`, '2026-05-01T00:00:00.000Z'), NOW, rule)).toBe(true);
  });
});
