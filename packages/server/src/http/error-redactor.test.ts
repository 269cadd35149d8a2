import { describe, expect, it } from 'vitest';
import { ErrorRedactor } from './error-redactor';

const redactor = new ErrorRedactor('/home/ana/agents/ana/.reverie', ['ana-laptop']);

describe('ErrorRedactor (SPEC O10)', () => {
  it("names the data directory <data> and drops Node's wording of the failed call", () => {
    const message =
      "Could not write memory (/home/ana/agents/ana/.reverie/memory/entries.json): EIO: i/o error, open '/home/ana/agents/ana/.reverie/memory/entries.json.tmp'. Check the disk.";
    expect(redactor.text(message)).toBe('Could not write memory (<data>/memory/entries.json): EIO. Check the disk.');
  });

  it('hides other absolute paths, but not the routes of the API', () => {
    expect(redactor.text("cannot read '/etc/reverie/options.json'")).toBe("cannot read '<path>'");
    expect(redactor.text('Nothing is served at /api/nothing: see /openapi.json for the routes.')).toBe(
      'Nothing is served at /api/nothing: see /openapi.json for the routes.',
    );
    expect(redactor.text('a category such as preferences/units')).toBe('a category such as preferences/units');
  });

  it("drops the lock holder's process id and host, and the parser's message", () => {
    expect(
      redactor.text(
        'The dream cycle did not run: the lock gate blocked it (another run holds the lock: process 4242 on ana-laptop since 2026-03-01T10:00:00.000Z (run abc)).',
      ),
    ).toBe(
      'The dream cycle did not run: the lock gate blocked it (another run holds the lock: another process since 2026-03-01T10:00:00.000Z (run abc)).',
    );
    expect(redactor.text('the lock held by process 12 is gone from build-7, stale')).not.toMatch(/12|build-7/);
    expect(redactor.text('not valid JSON (Unexpected token } in JSON at position 4)')).toBe('not valid JSON');
  });

  it('takes pid, host and token out of the details, and redacts the strings left', () => {
    const details = {
      lock: '/home/ana/agents/ana/.reverie/_system/dreams/lock',
      holder: { pid: 4242, host: 'build-box-7', acquiredAt: '2026-03-01', token: 'secret' },
      gates: [{ reason: 'held by build-box-7' }],
    };
    const { message, details: kept, changed } = redactor.error('Another dream run holds it: build-box-7.', details);
    expect(changed).toBe(true);
    expect(message).toBe('Another dream run holds it: <host>.');
    expect(kept).toEqual({
      lock: '<data>/_system/dreams/lock',
      holder: { acquiredAt: '2026-03-01' },
      gates: [{ reason: 'held by <host>' }],
    });
  });

  it('leaves an error with nothing to hide as it was', () => {
    const details = { category: 'preferences/units', issues: [{ path: 'tags.0', message: 'too long' }] };
    expect(redactor.error('Invalid input for save_memory: tags.0: too long.', details)).toEqual({
      message: 'Invalid input for save_memory: tags.0: too long.',
      details,
      changed: false,
    });
  });
});
