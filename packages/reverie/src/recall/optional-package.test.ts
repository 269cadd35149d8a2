import { describe, expect, it } from 'vitest';
import { fromOptionalPackage } from './optional-package';

describe('fromOptionalPackage', () => {
  it('gives what it takes from an installed package', () => {
    expect(fromOptionalPackage('zod', (require) => typeof require('zod'), 'x()', 'a file')).toBe('object');
  });

  it('says what to install, or to pass { path }, when the package is not there', () => {
    expect(() =>
      fromOptionalPackage(
        'reverie-no-such-package',
        (require) => require.resolve('reverie-no-such-package'),
        'loadSomething()',
        'a file of data',
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        message:
          'loadSomething() needs the package reverie-no-such-package, which is not installed: add it beside reverie (npm install reverie-no-such-package), or pass { path } to a file of data.',
      }),
    );
  });

  it('lets any other failure through', () => {
    const broken = new Error('the package threw while loading');
    expect(() =>
      fromOptionalPackage(
        'zod',
        () => {
          throw broken;
        },
        'x()',
        'a file',
      ),
    ).toThrow(broken);
  });
});
