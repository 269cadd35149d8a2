import { describe, expect, it } from 'vitest';
import { isReverieError } from '../errors/reverie-error';
import { HOSTILE_PATHS } from '../testing/conformance-context';
import { caseCollision, isUnderPrefix, validateCategory, validateSkillName, validateWorkingMemoryKey } from './path-name';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return isReverieError(error) ? error.code : 'not a ReverieError';
  }
}

describe('validateCategory', () => {
  it.each(['general', 'user-preferences/timezone', 'anti-patterns/file-operations', 'projets/été', 'a/b/c/d'])('accepts %j', (value) => {
    expect(validateCategory(value)).toBe(value);
  });

  it.each(HOSTILE_PATHS)('refuses %s with INVALID_CATEGORY', (_label, value) => {
    expect(codeOf(() => validateCategory(value))).toBe('INVALID_CATEGORY');
  });

  it.each([['C:'], ['a*b'], ['what?'], ['pipe|d'], [' padded'], ['tab\tbed']])('refuses the non-portable %j', (value) => {
    expect(codeOf(() => validateCategory(value))).toBe('INVALID_CATEGORY');
  });

  it('refuses values that are not strings', () => {
    expect(codeOf(() => validateCategory(42))).toBe('INVALID_CATEGORY');
    expect(codeOf(() => validateCategory(undefined))).toBe('INVALID_CATEGORY');
  });

  it('says what is wrong and what to do in the message', () => {
    expect(() => validateCategory('../../etc')).toThrow(/".." segment.*slash-separated names/);
    expect(() => validateCategory('a\\b')).toThrow(/backslash/);
  });
});

describe('validateSkillName', () => {
  it('accepts slash paths and refuses hostile names with INVALID_NAME', () => {
    expect(validateSkillName('mcp/email')).toBe('mcp/email');
    for (const [, value] of HOSTILE_PATHS) expect(codeOf(() => validateSkillName(value))).toBe('INVALID_NAME');
  });
});

describe('validateWorkingMemoryKey', () => {
  it('needs a two-segment namespace and a name', () => {
    expect(validateWorkingMemoryKey('session/abc/inbox')).toBe('session/abc/inbox');
    expect(codeOf(() => validateWorkingMemoryKey('session/abc'))).toBe('INVALID_KEY');
    expect(codeOf(() => validateWorkingMemoryKey('session/../inbox'))).toBe('INVALID_KEY');
  });
});

describe('isUnderPrefix', () => {
  it('matches whole segments only', () => {
    expect(isUnderPrefix('project-context/billing', 'project-context')).toBe(true);
    expect(isUnderPrefix('project-context', 'project-context')).toBe(true);
    expect(isUnderPrefix('project-context', 'project-context/')).toBe(true);
    expect(isUnderPrefix('project-contextual', 'project-context')).toBe(false);
    expect(isUnderPrefix('anything', '')).toBe(true);
  });
});

describe('names that break on other systems or mislead a reader (SPEC M2)', () => {
  const misleading: Array<[string, string, RegExp]> = [
    ['a Windows device name', 'CON', /Windows reserves/],
    ['a device name in lower case', 'aux', /Windows reserves/],
    ['a device name as a later segment', 'con/nul', /Windows reserves/],
    ['a device name with an extension', 'notes/com1.txt', /Windows reserves/],
    ['a fullwidth solidus', 'work\uff0fsecrets', /U\+FF0F/],
    ['a division slash', 'work\u2215secrets', /U\+2215/],
    ['a one-dot leader', 'v1\u2024md', /U\+2024/],
    ['a right-to-left override', 'invoice\u202egpj.exe', /bidirectional/],
    ['a zero-width space', 'work\u200bnotes', /invisible/],
    ['a byte-order mark', '\ufeffwork', /invisible/],
    ['a trailing dot', 'notes./x', /ends with "\."/],
  ];
  it.each(misleading)('refuses %s', (_label, value, reason) => {
    expect(codeOf(() => validateCategory(value))).toBe('INVALID_CATEGORY');
    expect(codeOf(() => validateSkillName(value))).toBe('INVALID_NAME');
    expect(() => validateCategory(value)).toThrow(reason);
  });

  it.each(['console', 'auxiliary', 'com10', 'lpt', 'nullable/con-figs', '日本語/メモ'])('still accepts %j', (value) => {
    expect(validateCategory(value)).toBe(value);
  });

  it('finds the existing name a new one collides with on a case-insensitive file system', () => {
    expect(caseCollision('Work/Notes', ['work/todo', 'home'])).toBe('work');
    expect(caseCollision('mcp/Email', ['mcp/email'])).toBe('mcp/email');
    expect(caseCollision('work/notes', ['work/todo', 'work/notes'])).toBeUndefined();
    expect(caseCollision('workshop', ['work'])).toBeUndefined();
  });
});
