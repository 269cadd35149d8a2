import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, isReverieError, ManualClock, systemClock, TOKENS } from '@reverie/core';
import { FileDreamStateStore } from '@reverie/file-store';
import { createReverie } from 'reverie';
import { describeScopeIsolation } from './scope-isolation-property';

/** SPEC B8: scopes over one data directory keep everything apart. */
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-scopes-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const builder = (dataPath: string, clock = new ManualClock('2026-06-01T00:00:00Z')) =>
  createReverie({ dataPath, clock }).withMemory().withWorkingMemory().withConversationLog().withDreaming({ enabled: false });

describe('createReverie({ scope })', () => {
  it('keeps a scope in its own folder below the data directory', async () => {
    const reverie = createReverie({ dataPath: root, scope: 'user:42' }).withMemory().build();
    try {
      expect(reverie.scope).toBe('user:42');
      expect(reverie.dataPath).toBe(join(root, 'scopes', 'user%3A42'));
      await reverie.memory!.save({ content: 'The user lives in Porto' });
      expect(existsSync(join(root, 'scopes', 'user%3A42', 'memory'))).toBe(true);
      expect(readdirSync(root)).toEqual(['scopes']);
    } finally {
      await reverie.close();
    }
  });

  it('refuses a scope that is not one, and says what a scope may be', () => {
    try {
      createReverie({ dataPath: root, scope: '../other' }).withMemory().build();
      expect.unreachable();
    } catch (error) {
      expect(isReverieError(error, 'INVALID_OPTIONS')).toBe(true);
      expect((error as Error).message).toContain('createReverie.scope');
      expect((error as Error).message).toContain('"user:42"');
    }
  });
});

describe('buildScopes()', () => {
  it('builds a scope once, lists the scopes on disk, and closes them', async () => {
    const scopes = builder(root).buildScopes();
    const first = scopes.get('user:1');
    expect(scopes.get('user:1')).toBe(first);
    await first.memory!.save({ content: 'Prefers tea' });
    await scopes.get('User:2').memory!.save({ content: 'Prefers coffee' });
    expect(scopes.open).toEqual(['User:2', 'user:1']);
    expect(await scopes.list()).toEqual(['User:2', 'user:1']);

    await scopes.closeScope('user:1');
    expect(scopes.open).toEqual(['User:2']);
    const reopened = scopes.get('user:1');
    expect(reopened).not.toBe(first);
    expect((await reopened.memory!.list()).map((e) => e.content)).toEqual(['Prefers tea']);

    await scopes.close();
    expect(() => scopes.get('user:1')).toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
    expect(() => builder(root).buildScopes().get('no spaces please')).toThrow(expect.objectContaining({ code: 'INVALID_SCOPE' }));
  });

  it('refuses store instances, which every scope would share', () => {
    const withStore = () => createReverie({ dataPath: root }).withMemory({ store: new InMemoryLongTermMemory() }).buildScopes();
    expect(withStore).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('cannot share one store') }),
    );
    const withUse = () =>
      createReverie({ dataPath: root }).withMemory().use(TOKENS.LongTermMemory, new InMemoryLongTermMemory()).buildScopes();
    expect(withUse).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    const withState = () =>
      createReverie({ dataPath: root })
        .withMemory()
        .withDreaming({ state: new FileDreamStateStore({ dataPath: root, clock: systemClock }) })
        .buildScopes();
    expect(withState).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', details: { issues: [{ path: 'dreaming', message: expect.any(String) }] } }),
    );
    expect(() => createReverie({ dataPath: root, scope: 'a' }).buildScopes()).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

describeScopeIsolation('the file stores', () => builder);
