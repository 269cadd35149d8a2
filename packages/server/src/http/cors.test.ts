import { describe, expect, it } from 'vitest';
import { judgeOrigin } from './cors';

describe('judgeOrigin (SPEC O10)', () => {
  it('never allows the origin "null", even when it was configured', () => {
    expect(judgeOrigin('null', '127.0.0.1:4319', ['null'])).toBe('refused');
    expect(judgeOrigin('NULL', '127.0.0.1:4319', [])).toBe('refused');
  });

  it("allows a configured http(s) origin and the server's own, refuses the rest", () => {
    expect(judgeOrigin('https://ops.example.com', '127.0.0.1:4319', ['https://ops.example.com'])).toBe('allowed');
    expect(judgeOrigin('http://127.0.0.1:4319', '127.0.0.1:4319', [])).toBe('same-origin');
    expect(judgeOrigin('https://evil.example.com', '127.0.0.1:4319', ['https://ops.example.com'])).toBe('refused');
    expect(judgeOrigin(undefined, '127.0.0.1:4319', [])).toBe('none');
  });
});
