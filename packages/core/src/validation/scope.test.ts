import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isReverieError } from '../errors/reverie-error';
import { MAX_SCOPE_LENGTH, scopeFolderName, scopeFromFolderName, scopeProblem, validateScope } from './scope';

const scopeChar = fc.constantFrom(...'abcXYZ019._:@+=|-'.split(''));
const scopeArbitrary = fc
  .tuple(fc.constantFrom(...'aZ7'.split('')), fc.array(scopeChar, { maxLength: 40 }))
  .map(([first, rest]) => first + rest.join(''));

describe('validateScope', () => {
  it.each(['user:42', 'agent:billing', 'tenant-7|user-9', 'a', 'User@example.com', 'x'.repeat(MAX_SCOPE_LENGTH)])('accepts %j', (scope) => {
    expect(validateScope(scope)).toBe(scope);
  });

  it.each([
    ['', 'it is empty'],
    ['x'.repeat(MAX_SCOPE_LENGTH + 1), 'characters long'],
    [':user', 'does not start'],
    ['user/42', 'a character other than'],
    ['user 42', 'a character other than'],
    ['../etc', 'does not start'],
    ['über', 'does not start'],
    [42, 'not a string'],
  ])('refuses %j with INVALID_SCOPE', (scope, problem) => {
    expect(scopeProblem(scope)).toContain(problem);
    try {
      validateScope(scope);
      expect.unreachable();
    } catch (error) {
      expect(isReverieError(error, 'INVALID_SCOPE')).toBe(true);
      expect((error as Error).message).toContain('such as "user:42"');
    }
  });
});

describe('scopeFolderName', () => {
  it('keeps plain lower-case scopes readable and encodes the rest', () => {
    expect(scopeFolderName('team-7.bot_1')).toBe('team-7.bot_1');
    expect(scopeFolderName('user:42')).toBe('user%3A42');
    expect(scopeFolderName('User')).toBe('%55ser');
    expect(scopeFolderName('con')).toBe('%63on');
    expect(scopeFolderName('aux.1')).toBe('%61ux.1');
  });

  it('gives two scopes two folders, also where case is ignored, and reads back', () => {
    fc.assert(
      fc.property(scopeArbitrary, scopeArbitrary, (a, b) => {
        const folderA = scopeFolderName(a);
        expect(scopeFromFolderName(folderA)).toBe(a);
        expect(folderA).toMatch(/^(?:[a-z0-9._-]|%[0-9A-F]{2})+$/);
        if (a !== b) expect(folderA.toLowerCase()).not.toBe(scopeFolderName(b).toLowerCase());
      }),
    );
  });

  it('reads no scope from a folder it would not make', () => {
    for (const folder of ['.hidden', 'user%3a42', '%2Fetc', 'USER', '%75ser', 'con']) {
      expect(scopeFromFolderName(folder)).toBeUndefined();
    }
  });
});
