import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Reverie, ReverieBuilder, ReverieScopes } from 'reverie';

const SCOPE_NAMES = ['user:1', 'user:2', 'agent:billing'] as const;
const WORDS = ['lisbon', 'porto', 'tuesday', 'deploys', 'coffee', 'invoice'] as const;

type Command =
  | { type: 'save'; scope: number; word: number; twin: boolean }
  | { type: 'delete'; scope: number; pick: number }
  | { type: 'search'; scope: number; word: number }
  | { type: 'turn'; scope: number; word: number }
  | { type: 'note'; scope: number; word: number }
  | { type: 'dream'; scope: number; undo: boolean };

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ type: fc.constant('save' as const), scope: fc.nat(2), word: fc.nat(5), twin: fc.boolean() }),
  fc.record({ type: fc.constant('delete' as const), scope: fc.nat(2), pick: fc.nat(20) }),
  fc.record({ type: fc.constant('search' as const), scope: fc.nat(2), word: fc.nat(5) }),
  fc.record({ type: fc.constant('turn' as const), scope: fc.nat(2), word: fc.nat(5) }),
  fc.record({ type: fc.constant('note' as const), scope: fc.nat(2), word: fc.nat(5) }),
  fc.record({ type: fc.constant('dream' as const), scope: fc.nat(2), undo: fc.boolean() }),
);

/** What the property runs on: a builder of memory, working memory, the conversation log and dreaming (not scheduled) over `dataPath`, on the file stores or on PostgreSQL. */
export type ScopeBackend = (dataPath: string) => ReverieBuilder;

/**
 * SPEC B8, as a property over random commands on three scopes of one backend:
 * no read, write, search, injected id, working-memory entry, dream run or undo reaches another
 * scope. Each round uses scopes of its own (a database outlives the round).
 */
export function describeScopeIsolation(label: string, backend: () => ScopeBackend, numRuns = 12): void {
  describe(`scopes never cross on ${label} (property)`, () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'reverie-scopes-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('no read, write, search, injected id, working-memory entry, dream run or undo reaches another scope', async () => {
      let round = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(commandArbitrary, { minLength: 5, maxLength: 25 }), async (commands) => {
          const dataPath = join(root, `round-${round}`);
          const SCOPES = SCOPE_NAMES.map((name) => `${name}.r${round}`);
          round += 1;
          const scopes: ReverieScopes = backend()(dataPath).buildScopes();
          // What each scope should hold: its own entries' contents, and its own runs.
          const model = SCOPES.map(() => new Map<string, string>());
          const runs = SCOPES.map(() => [] as string[]);
          const mark = (scope: number, text: string) => `${text} [${SCOPES[scope]}]`;
          const reverieOf = (scope: number): Reverie => scopes.get(SCOPES[scope]!);
          try {
            for (const command of commands) {
              const reverie = reverieOf(command.scope);
              const own = model[command.scope]!;
              switch (command.type) {
                case 'save': {
                  // A twin is the same sentence in every scope: the dream cycle must never merge across scopes.
                  const content = command.twin
                    ? `The user mentioned ${WORDS[command.word]}`
                    : mark(command.scope, `Note about ${WORDS[command.word]}`);
                  const saved = await reverie.memory!.save({ content });
                  own.set(saved.id, saved.content);
                  break;
                }
                case 'delete': {
                  const ids = [...own.keys()];
                  const id = ids[command.pick % Math.max(ids.length, 1)];
                  // Deleting another scope's id through this scope finds nothing.
                  for (let other = 0; other < SCOPES.length; other++) {
                    if (other === command.scope) continue;
                    const foreign = [...model[other]!.keys()][0];
                    if (foreign && !own.has(foreign)) expect(await reverie.memory!.delete(foreign)).toBe(false);
                  }
                  if (id) {
                    expect(await reverie.memory!.delete(id)).toBe(true);
                    own.delete(id);
                  }
                  break;
                }
                case 'search': {
                  const hits = await reverie.memory!.search({ text: WORDS[command.word]!, maxResults: 50 });
                  for (const hit of hits) expect(own.get(hit.entry.id)).toBe(hit.entry.content);
                  break;
                }
                case 'turn': {
                  const context = await reverie.context.forTurn({
                    sessionId: 'shared-session',
                    message: `what about ${WORDS[command.word]}?`,
                  });
                  for (const id of [...context.sessionMemoryIds, ...context.profileIds]) expect(own.has(id)).toBe(true);
                  break;
                }
                case 'note': {
                  const key = `session/shared/${WORDS[command.word]}`;
                  await reverie.workingMemory!.set(key, mark(command.scope, 'scratch'));
                  for (let other = 0; other < SCOPES.length; other++) {
                    const found = await reverieOf(other).workingMemory!.get(key);
                    if (found) expect(found.value).toBe(mark(other, 'scratch'));
                  }
                  break;
                }
                case 'dream': {
                  const report = await reverie.dreams.run();
                  runs[command.scope]!.push(report.runId);
                  if (command.undo) {
                    for (let other = 0; other < SCOPES.length; other++) {
                      if (other === command.scope) continue;
                      await expect(reverieOf(other).dreams.undo(report.runId)).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
                    }
                    await reverie.dreams.undo(report.runId);
                  }
                  // The cycle merged twins within this scope only: resync the model from the store.
                  own.clear();
                  for (const entry of await reverie.memory!.list()) own.set(entry.id, entry.content);
                  break;
                }
              }
              for (let scope = 0; scope < SCOPES.length; scope++) {
                const entries = await reverieOf(scope).memory!.list();
                expect(new Map(entries.map((entry) => [entry.id, entry.content]))).toEqual(model[scope]);
                expect((await reverieOf(scope).dreams.listRuns()).map((run) => run.runId).sort()).toEqual([...runs[scope]!].sort());
              }
            }
          } finally {
            await scopes.close();
          }
        }),
        { numRuns },
      );
    }, 300_000);
  });
}
