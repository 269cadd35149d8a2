import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isReverieError } from '../errors/reverie-error';
import { invalidOptions, optionIssues, parseOptions } from './invalid-options';

const schema = z.strictObject({ dataPath: z.string().min(1), limits: z.object({ maxTurns: z.number().int().positive() }).optional() });

describe('parseOptions', () => {
  it('returns the parsed options with their defaults', () => {
    expect(parseOptions(schema.extend({ retries: z.number().default(3) }), { dataPath: '/tmp/x' }, 'store options')).toEqual({
      dataPath: '/tmp/x',
      retries: 3,
    });
  });

  it('refuses bad options with INVALID_OPTIONS listing every issue as { path, message }', () => {
    let thrown: unknown;
    try {
      parseOptions(schema, { dataPath: '', limits: { maxTurns: -1 }, extra: true }, 'store options');
    } catch (error) {
      thrown = error;
    }
    expect(isReverieError(thrown, 'INVALID_OPTIONS')).toBe(true);
    const error = thrown as Error & { details: { issues: Array<{ path: string; message: string }> } };
    expect(error.message).toMatch(/^Invalid store options: /);
    expect(error.details.issues.map((issue) => issue.path).sort()).toEqual(['', 'dataPath', 'limits.maxTurns']);
    for (const issue of error.details.issues) expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
    // What the message says is what the issues say.
    for (const issue of error.details.issues) expect(error.message).toContain(issue.message);
  });

  it('appends what to pass instead', () => {
    expect(() => parseOptions(schema, {}, 'store options', 'Pass { dataPath }.')).toThrow(/\. Pass \{ dataPath \}\.$/);
  });
});

describe('invalidOptions', () => {
  it('carries exactly the issues it is given, and the cause', () => {
    const cause = new Error('ENOENT');
    const error = invalidOptions('No file at /x: check the path given.', [{ path: 'path', message: 'no such file' }], { cause });
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', details: { issues: [{ path: 'path', message: 'no such file' }] }, cause });
  });

  it('turns zod issues into dotted paths', () => {
    const parsed = schema.safeParse({ dataPath: 3 });
    expect(parsed.success).toBe(false);
    expect(optionIssues(parsed.error!)).toEqual([{ path: 'dataPath', message: expect.any(String) }]);
  });
});
