import { describe, expect, it } from 'vitest';
import { ReverieError, ReverieLockHeldError, ReverieValidationError } from '@reverie/core';
import { CliError, UsageError } from './cli-error';
import { describeFailure } from './describe-failure';
import { EXIT } from './exit-codes';

describe('describeFailure', () => {
  it('maps ReverieError codes to the documented exit codes', () => {
    expect(describeFailure(new ReverieValidationError('INVALID_CATEGORY', 'bad category')).exitCode).toBe(EXIT.USAGE);
    expect(describeFailure(new ReverieError('NOT_FOUND', 'no such run')).exitCode).toBe(EXIT.NOT_FOUND);
    expect(describeFailure(new ReverieLockHeldError('a dream is running')).exitCode).toBe(EXIT.LOCK_HELD);
    expect(describeFailure(new ReverieError('IO_ERROR', 'disk')).exitCode).toBe(EXIT.DATA_DIR);
    expect(describeFailure(new ReverieError('MODEL_UNAVAILABLE', 'down')).exitCode).toBe(EXIT.FAILED);
  });

  it('reads the code family, so newer codes of a family map the same way', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(describeFailure(coded('UNKNOWN_PASS')).exitCode).toBe(EXIT.USAGE);
    expect(describeFailure(coded('UNKNOWN_PHASE')).exitCode).toBe(EXIT.USAGE);
    expect(describeFailure(coded('RUN_NOT_FOUND')).exitCode).toBe(EXIT.NOT_FOUND);
  });

  it('maps file-system permission errors to the data-directory code', () => {
    const denied = Object.assign(new Error("EACCES: permission denied, open '/data/memory/x.json'"), { code: 'EACCES' });
    expect(describeFailure(denied)).toEqual({ exitCode: EXIT.DATA_DIR, message: "EACCES: permission denied, open '/data/memory/x.json'" });
  });

  it('keeps the exit code of CLI errors and puts any message on one line', () => {
    expect(describeFailure(new UsageError('unknown option --x'))).toEqual({ exitCode: EXIT.USAGE, message: 'unknown option --x' });
    expect(describeFailure(new CliError('x', EXIT.NOT_FOUND)).exitCode).toBe(EXIT.NOT_FOUND);
    expect(describeFailure(new Error('first\n  second')).message).toBe('first second');
    expect(describeFailure('a thrown string')).toEqual({ exitCode: EXIT.FAILED, message: 'a thrown string' });
  });
});
