import { describe, expect, it } from 'vitest';
import { isReverieError, ReverieConflictError, ReverieError, ReverieValidationError } from './reverie-error';

describe('ReverieError', () => {
  it('carries a code, details and the cause', () => {
    const cause = new Error('disk full');
    const error = new ReverieError('IO_ERROR', 'Could not write the entry: free some disk space and retry.', {
      cause,
      details: { path: '/data/memory/x.json' },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('IO_ERROR');
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ path: '/data/memory/x.json' });
    expect(error.name).toBe('ReverieError');
  });

  it('has subclasses that keep the family recognisable', () => {
    const conflict = new ReverieConflictError('changed since read');
    expect(conflict).toBeInstanceOf(ReverieError);
    expect(conflict.code).toBe('CONFLICT');
    expect(isReverieError(conflict, 'CONFLICT')).toBe(true);
    expect(isReverieError(conflict, 'NOT_FOUND')).toBe(false);
    expect(isReverieError(new Error('plain'))).toBe(false);
    expect(new ReverieValidationError('INVALID_NAME', 'bad').name).toBe('ReverieValidationError');
  });

  it('recognises a ReverieError of another copy of the package (an ESM and a CommonJS build in one process)', () => {
    class OtherCopyError extends Error {
      readonly code = 'CONFLICT';
      constructor() {
        super('changed since read');
        Object.defineProperty(this, Symbol.for('reverie.ReverieError'), { value: true });
      }
    }
    const foreign = new OtherCopyError();
    expect(foreign instanceof ReverieError).toBe(true);
    expect(isReverieError(foreign, 'CONFLICT')).toBe(true);
    expect(foreign instanceof ReverieConflictError).toBe(false);
    expect(new Error('plain') instanceof ReverieError).toBe(false);
  });
});
