import {
  InMemoryConversationLog,
  InMemoryFeedbackStore,
  InMemorySkillStore,
  InMemorySkillUsageStore,
  InMemoryWorkflowLog,
  InMemoryWorkingMemory,
  type IConversationLog,
  type IFeedbackStore,
  type ISkillStore,
  type ISkillUsageStore,
  type IWorkflowLog,
  type IWorkingMemory,
  ManualClock,
  newId,
} from '@reverie/core';
import { MINUTE } from '@reverie/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { PostgresConversationLog } from '../conversation-log/postgres-conversation-log';
import { PostgresFeedbackStore } from '../feedback/postgres-feedback-store';
import { PostgresSkillUsageStore } from '../skill-usage/postgres-skill-usage-store';
import { PostgresSkillStore } from '../skills/postgres-skill-store';
import { PostgresWorkflowLog } from '../workflow-log/postgres-workflow-log';
import { PostgresWorkingMemory } from '../working-memory/postgres-working-memory';
import { realServer, usePgliteClient, useRealClient } from '../../test/test-databases';

// Every scope uses the same names, keys and sessions, so a row read from another scope would show.
const WORDS = ['garden', 'deploy', 'deployment', 'coffee', 'porto', 'tea'];
const SKILLS = ['git', 'git/rebase', 'deploy/prod', 'notes'];
const KEYS = ['session/a/x', 'session/a/y', 'session/a/z', 'session/b/x', 'patrol/p/x'];
const SESSIONS = ['s1', 's2'];

const scope = fc.nat(2);
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 });
const opArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('saveSkill' as const), scope, name: fc.constantFrom(...SKILLS), words }),
  fc.record({ kind: fc.constant('deleteSkill' as const), scope, name: fc.constantFrom(...SKILLS) }),
  fc.record({ kind: fc.constant('recordUsage' as const), scope, name: fc.constantFrom(...SKILLS), session: fc.constantFrom(...SESSIONS) }),
  fc.record({ kind: fc.constant('appendTurn' as const), scope, session: fc.constantFrom(...SESSIONS), words }),
  fc.record({ kind: fc.constant('clearTurns' as const), scope, through: fc.option(fc.nat(6), { nil: undefined }) }),
  fc.record({ kind: fc.constant('recordFeedback' as const), scope, session: fc.constantFrom(...SESSIONS), words, positive: fc.boolean() }),
  fc.record({
    kind: fc.constant('appendWorkflow' as const),
    scope,
    description: fc.constantFrom('deploy', 'backup'),
    success: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('clearWorkflow' as const), scope, minutesAgo: fc.nat(4) }),
  fc.record({
    kind: fc.constant('setWorking' as const),
    scope,
    key: fc.constantFrom(...KEYS),
    words,
    ttlMinutes: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('deleteWorking' as const), scope, key: fc.constantFrom(...KEYS) }),
  fc.record({ kind: fc.constant('sweepWorking' as const), scope }),
  fc.record({ kind: fc.constant('advance' as const), minutes: fc.nat(3) }),
  fc.record({ kind: fc.constant('check' as const), scope, word: fc.constantFrom(...WORDS) }),
);
type Op = typeof opArbitrary extends fc.Arbitrary<infer T> ? T : never;

interface Stores {
  skills: ISkillStore;
  usage: ISkillUsageStore;
  log: IConversationLog;
  feedback: IFeedbackStore;
  workflow: IWorkflowLog;
  working: IWorkingMemory;
}

/** Hits as `score key` lines, sorted: ties may come in either order. */
const ranked = (hits: ReadonlyArray<{ score: number; key: string }>) => hits.map((hit) => `${hit.score.toFixed(9)} ${hit.key}`).sort();

/** Everything a scope's stores answer equals what that scope's reference stores answer. */
async function expectSame(pg: Stores, ref: Stores, word: string): Promise<void> {
  expect(await pg.skills.list()).toEqual(await ref.skills.list());
  expect(await pg.skills.list({ prefix: 'git' })).toEqual(await ref.skills.list({ prefix: 'git' }));
  for (const name of SKILLS) expect(await pg.skills.get(name)).toEqual(await ref.skills.get(name));
  const skillHits = async (store: ISkillStore) =>
    ranked((await store.search({ text: word, maxResults: 50 })).map((hit) => ({ score: hit.score, key: hit.skill.name })));
  expect(await skillHits(pg.skills)).toEqual(await skillHits(ref.skills));
  expect(await pg.skills.search({ prefix: 'git' })).toEqual(await ref.skills.search({ prefix: 'git' }));
  expect(await pg.usage.list()).toEqual(await ref.usage.list());
  expect(await pg.usage.list({ skill: 'git', sessionId: 's1' })).toEqual(await ref.usage.list({ skill: 'git', sessionId: 's1' }));
  expect(await pg.log.read()).toEqual(await ref.log.read());
  expect(await pg.log.read({ afterSeq: 2, sessionId: 's2' })).toEqual(await ref.log.read({ afterSeq: 2, sessionId: 's2' }));
  expect(await pg.feedback.list()).toEqual(await ref.feedback.list());
  expect(await pg.feedback.list({ limit: 2, kinds: ['positive'] })).toEqual(await ref.feedback.list({ limit: 2, kinds: ['positive'] }));
  expect(await pg.workflow.read()).toEqual(await ref.workflow.read());
  expect(await pg.workflow.read({ description: 'deploy' })).toEqual(await ref.workflow.read({ description: 'deploy' }));
  expect(await pg.working.list()).toEqual(await ref.working.list());
  expect(await pg.working.list('session/a')).toEqual(await ref.working.list('session/a'));
  for (const key of KEYS) expect(await pg.working.get(key)).toEqual(await ref.working.get(key));
  const workingHits = async (store: IWorkingMemory) =>
    ranked((await store.search({ text: word, maxResults: 50 })).map((hit) => ({ score: hit.score, key: hit.entry.key })));
  expect(await workingHits(pg.working)).toEqual(await workingHits(ref.working));
  const browse = async (store: IWorkingMemory) =>
    (await store.search({ prefix: 'session', maxResults: 50 })).map((hit) => hit.entry.key).sort();
  expect(await browse(pg.working)).toEqual(await browse(ref.working));
}

/** Applies `op` to a scope's stores; returns what the call returned, to compare. */
async function apply(
  stores: Stores,
  op: Exclude<Op, { kind: 'advance' | 'check' }>,
  ids: { feedback: string; workflow: string },
  clock: ManualClock,
): Promise<unknown> {
  const text = 'words' in op ? op.words.join(' ') : '';
  switch (op.kind) {
    case 'saveSkill':
      return stores.skills.save({ name: op.name, summary: `About ${op.name}`, content: text });
    case 'deleteSkill':
      return stores.skills.delete(op.name);
    case 'recordUsage':
      return stores.usage.record({ skill: op.name, sessionId: op.session });
    case 'appendTurn':
      return stores.log.append({ sessionId: op.session, role: 'user', content: text });
    case 'clearTurns':
      return stores.log.clear(op.through === undefined ? {} : { throughSeq: op.through });
    case 'recordFeedback':
      return stores.feedback.record({ id: ids.feedback, kind: op.positive ? 'positive' : 'negative', sessionId: op.session, text });
    case 'appendWorkflow':
      return stores.workflow.append({ id: ids.workflow, description: op.description, success: op.success });
    case 'clearWorkflow':
      return stores.workflow.clear({ before: new Date(clock.now().getTime() - op.minutesAgo * MINUTE) });
    case 'setWorking':
      return stores.working.set(op.key, text, { ttlMs: op.ttlMinutes * MINUTE, tags: op.words.slice(0, 1) });
    case 'deleteWorking':
      return stores.working.delete(op.key);
    case 'sweepWorking':
      return stores.working.sweep();
  }
}

let run = 0;

function describeScopes(label: string, client: () => PostgresClient, numRuns: number) {
  describe(`the six stores over three scopes on ${label}`, () => {
    it('answer every read, search, listing and sweep of a scope from that scope alone, as the reference stores do', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 30 }), async (ops) => {
          run += 1;
          const clock = new ManualClock('2026-03-01T12:00:00.000Z');
          const twins = [0, 1, 2].map((i) => {
            const options = { client: client(), scope: `user:${process.pid}.${run}.${i}`, clock };
            const pg: Stores = {
              skills: new PostgresSkillStore(options),
              usage: new PostgresSkillUsageStore(options),
              log: new PostgresConversationLog(options),
              feedback: new PostgresFeedbackStore(options),
              workflow: new PostgresWorkflowLog(options),
              working: new PostgresWorkingMemory({ ...options, sweepIntervalMs: 0 }),
            };
            const ref: Stores = {
              skills: new InMemorySkillStore({ clock }),
              usage: new InMemorySkillUsageStore({ clock }),
              log: new InMemoryConversationLog({ clock }),
              feedback: new InMemoryFeedbackStore({ clock }),
              workflow: new InMemoryWorkflowLog({ clock }),
              working: new InMemoryWorkingMemory({ clock }),
            };
            return { pg, ref };
          });
          try {
            for (const op of ops) {
              if (op.kind === 'advance') {
                clock.advance(op.minutes * MINUTE);
                continue;
              }
              const { pg, ref } = twins[op.scope]!;
              if (op.kind === 'check') {
                await expectSame(pg, ref, op.word);
                continue;
              }
              clock.advance(1000);
              const ids = { feedback: newId(), workflow: newId() };
              expect(await apply(pg, op, ids, clock)).toEqual(await apply(ref, op, ids, clock));
            }
            for (const { pg, ref } of twins) await expectSame(pg, ref, WORDS[1]!);
          } finally {
            for (const { pg } of twins) await Promise.all(Object.values(pg).map((store: { close(): Promise<void> }) => store.close()));
          }
        }),
        { numRuns },
      );
    });
  });
}

describeScopes('PGlite', usePgliteClient(), 25);

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  describeScopes('PostgreSQL', useRealClient(), 8);
});
