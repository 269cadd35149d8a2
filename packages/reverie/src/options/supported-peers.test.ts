import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertSupportedPeers, installedVersion, peerVersionProblem, SUPPORTED_PEERS } from './supported-peers';

describe('SUPPORTED_PEERS', () => {
  it('are the peer dependencies package.json declares, and the workspace has them', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
    };
    for (const { name, range } of SUPPORTED_PEERS) {
      expect(manifest.peerDependencies[name]).toBe(range);
      expect(peerVersionProblem(name, range, installedVersion(name))).toBeUndefined();
    }
  });
});

describe('peerVersionProblem', () => {
  it.each([
    ['6.0.0', undefined],
    ['6.0.326', undefined],
    ['6.4.1', undefined],
    ['6.0.0-beta.3', 'reverie needs ai ^6.0.0, and this project has ai@6.0.0-beta.3'],
    ['5.0.76', 'reverie needs ai ^6.0.0, and this project has ai@5.0.76'],
    ['7.0.0', 'reverie needs ai ^6.0.0, and this project has ai@7.0.0'],
    ['not-a-version', 'reverie needs ai ^6.0.0, and this project has ai@not-a-version'],
  ])('ai@%s', (version, problem) => {
    expect(peerVersionProblem('ai', '^6.0.0', version)).toBe(problem);
  });

  it('compares minor and patch above the range’s floor', () => {
    expect(peerVersionProblem('zod', '^4.6.7', '4.6.7')).toBeUndefined();
    expect(peerVersionProblem('zod', '^4.6.7', '4.10.0')).toBeUndefined();
    expect(peerVersionProblem('zod', '^4.6.7', '4.6.6')).toBe('reverie needs zod ^4.6.7, and this project has zod@4.6.6');
    expect(peerVersionProblem('zod', '^4.6.7', '3.25.76')).toBe('reverie needs zod ^4.6.7, and this project has zod@3.25.76');
  });

  it('says when the package is missing', () => {
    expect(peerVersionProblem('ai', '^6.0.0', undefined)).toBe('reverie needs the package ai (^6.0.0) beside it, and it is not installed');
  });
});

describe('assertSupportedPeers', () => {
  it('is UNSUPPORTED_DEPENDENCY naming each version and what to install', () => {
    const versions = new Map([
      ['ai', '5.0.76'],
      ['zod', '4.6.7'],
    ]);
    expect(() => assertSupportedPeers((name) => versions.get(name))).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_DEPENDENCY',
        message: expect.stringMatching(/reverie needs ai \^6\.0\.0, and this project has ai@5\.0\.76: npm install ai@6/),
      }),
    );
    expect(() => assertSupportedPeers((name) => (name === 'ai' ? '6.0.1' : '4.6.7'))).not.toThrow();
  });
});
