import { describe, expect, it } from 'vitest';
import { fileSystemError, internalError } from './file-system-error';
import { ReverieError } from './reverie-error';

const systemError = (code: string, syscall = 'open') =>
  Object.assign(new Error(`${code}: failed, ${syscall} '/data/memory/x.json'`), { code, syscall, path: '/data/memory/x.json' });

describe('fileSystemError: only a failing file system gets disk advice', () => {
  it.each([
    ['EROFS', 'READ_ONLY'],
    ['EACCES', 'PERMISSION_DENIED'],
    ['ENOSPC', 'NO_SPACE'],
    ['ENOTDIR', 'NOT_A_DIRECTORY'],
    ['EISDIR', 'IS_A_DIRECTORY'],
    ['EIO', 'IO_ERROR'],
  ])('%s is %s, with the path and what to do', (errno, code) => {
    const error = fileSystemError(systemError(errno), 'write a memory entry', '/data/memory');
    expect(error).toMatchObject({ code, details: { path: '/data/memory/x.json', errno } });
    expect(error.message).toMatch(/^Could not write a memory entry/);
  });

  it('an exception of the code (a TypeError, a thrown string) is INTERNAL, says so, and gives no disk advice', () => {
    for (const thrown of [
      new TypeError('word.toLowerCase is not a function'),
      'boom',
      Object.assign(new Error('odd'), { code: 'ERR_INVALID_ARG_TYPE' }),
    ]) {
      const error = fileSystemError(thrown, 'write a memory entry', '/data/memory');
      expect(error.code).toBe('INTERNAL');
      expect(error.message).toContain(thrown instanceof Error ? thrown.message : thrown);
      expect(error.message).toContain('fault in Reverie');
      expect(error.message).not.toMatch(/Check the disk|space left|permissions of/);
    }
  });

  it('a ReverieError passes through both unchanged', () => {
    const original = new ReverieError('INVALID_CATEGORY', 'bad');
    expect(fileSystemError(original, 'x', '/y')).toBe(original);
    expect(internalError(original, 'x')).toBe(original);
  });
});
