import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The answer of a tool call, parsed; fails when the call was a tool error. */
export async function callOk<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, `${name}: ${text}`).toBeFalsy();
  return JSON.parse(text) as T;
}

/** The error of a tool call that must fail: its `{ code, message, details }`, with no stack trace in it. */
export async function callRefused(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, `${name} should have been refused: ${text}`).toBe(true);
  expect(text).not.toMatch(/\n\s+at /);
  return (JSON.parse(text) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

/**
 * Calls every tool of a writable server whose dream cycle is gated by `minHours`, checking each
 * answer and each refusal (bad input, unknown id, the second dream run blocked by the time gate). `skill` names
 * a skill the library holds. Resolves to the names of the tools it called.
 */
export async function exerciseEveryTool(client: Client, skill: string): Promise<Set<string>> {
  const called = new Set<string>();
  const ok = <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) => (called.add(name), callOk<T>(client, name, args));
  const refused = (name: string, args: Record<string, unknown> = {}) => (called.add(name), callRefused(client, name, args));

  const first = await ok<{ id: string }>('memory_save', { content: 'The user flies to Lisbon in May topic-1', category: 'travel', tags: ['trip'] });
  const second = await ok<{ id: string }>('memory_save', { content: 'The Lisbon trip is booked for May topic-1', category: 'travel' });
  expect((await refused('memory_save', { content: 42 })).code).toBe('INVALID_INPUT');
  expect((await refused('memory_save', { content: 'x', category: '../../etc' })).code).toBe('INVALID_CATEGORY');
  expect(await ok('memory_update', { id: first.id, importance: 0.8 })).toMatchObject({ id: first.id, importance: 0.8, category: 'travel' });
  expect((await refused('memory_update', { id: '0123456789ab', content: 'y' })).code).toBe('NOT_FOUND');
  expect(await ok('memory_get', { id: second.id })).toMatchObject({ content: 'The Lisbon trip is booked for May topic-1' });
  expect((await refused('memory_get', { id: '0123456789ab' })).code).toBe('NOT_FOUND');
  expect((await refused('memory_get', { id: 'not-an-id' })).code).toBe('INVALID_ID');
  // SPEC B10: saved through the server, so written by the API.
  expect(await ok('memory_lineage', { id: second.id })).toMatchObject({ id: second.id, steps: [{ kind: 'written', id: second.id, origin: 'api' }], folded: 0 });
  expect((await refused('memory_lineage', { id: '0123456789ab' })).code).toBe('NOT_FOUND');
  const hits = await ok<Array<{ entry: { id: string } }>>('memory_search', { query: 'Lisbon trip', limit: 5 });
  expect(hits.map((hit) => hit.entry.id).sort()).toEqual([first.id, second.id].sort());
  expect((await refused('memory_search', {})).code).toBe('INVALID_INPUT');
  expect(await ok('memory_list', { category: 'travel' })).toMatchObject({ total: 2 });
  expect(await ok('memory_categories')).toEqual([{ category: 'travel', count: 2 }]);

  expect(await ok('working_memory_save', { key: 'inbox', data: '3 unread', tags: ['mail'] })).toMatchObject({ key: expect.stringMatching(/^session\/.+\/inbox$/) });
  expect(await ok('working_memory_get', { key: 'inbox' })).toMatchObject({ found: true, value: '3 unread' });
  expect((await refused('working_memory_get', { key: 'drafts' })).code).toBe('NOT_FOUND');
  expect(await ok('working_memory_list')).toMatchObject({ entries: [expect.objectContaining({ tags: ['mail'] })] });
  expect(await ok<unknown[]>('working_memory_search', { query: 'unread' })).toHaveLength(1);
  expect((await refused('working_memory_save', { key: 'patrol/other/x', data: 'mine' })).code).toBe('NAMESPACE_VIOLATION');

  expect(await ok<Array<{ name: string }>>('skills_list')).toContainEqual(expect.objectContaining({ name: skill }));
  expect(await ok('skills_get', { name: skill })).toMatchObject({ name: skill, content: expect.any(String) });
  expect((await refused('skills_get', { name: 'no/such-skill' })).code).toBe('NOT_FOUND');

  const cycle = await ok<{ runId: string; dryRun: boolean }>('dream_run', { reason: 'test' });
  expect(cycle.dryRun).toBe(false);
  const blocked = await refused('dream_run');
  expect(blocked).toMatchObject({ code: 'DREAM_BLOCKED', details: { gate: 'time' } });
  expect(blocked.message).toContain('time gate');
  expect(await ok('dream_trigger', { reason: 'test' })).toEqual({ accepted: true, trigger: 'test' });

  const plan = await ok<{ planId: string; dryRun: boolean }>('dream_plan', { phase: 'light-sleep' });
  expect(plan).toMatchObject({ dryRun: true, planId: expect.any(String) });
  expect((await refused('dream_plan', { phase: 'nap' })).code).toBe('INVALID_INPUT');
  expect(await ok<Array<{ planId: string }>>('dream_plans')).toContainEqual(expect.objectContaining({ planId: plan.planId }));
  const applied = await ok<{ runId: string; planId: string }>('dream_apply', { planId: plan.planId });
  expect(applied.planId).toBe(plan.planId);
  expect((await refused('dream_apply', { planId: plan.planId })).code).toBe('PLAN_APPLIED');
  expect((await refused('dream_apply', { planId: '0123456789ab' })).code).toBe('PLAN_NOT_FOUND');

  const status = await ok<{ phases: Array<{ phase: string; runs: number }> }>('dream_status', { windowHours: 24 });
  expect(status.phases.map((phase) => phase.phase)).toEqual(['light-sleep', 'rem', 'deep-sleep']);
  const runs = await ok<Array<{ runId: string }>>('dream_runs');
  expect(runs.map((run) => run.runId)).toEqual(expect.arrayContaining([applied.runId, cycle.runId]));
  expect(await ok('dream_show', { runId: cycle.runId })).toMatchObject({ manifest: { runId: cycle.runId } });
  expect(await ok('dream_show', { runId: 'latest' })).toMatchObject({ manifest: { runId: expect.any(String) } });
  expect((await refused('dream_show', { runId: '0123456789ab' })).code).toBe('RUN_NOT_FOUND');
  expect(await ok('dream_undo', { runId: cycle.runId })).toMatchObject({ runId: cycle.runId });
  expect((await refused('dream_undo', { runId: '0123456789ab' })).code).toBe('RUN_NOT_FOUND');

  const doctor = await ok<{ checks: Array<{ name: string; status: string }> }>('doctor');
  expect(doctor.checks.find((check) => check.name === 'memory')).toMatchObject({ status: 'ok' });

  expect(await ok('memory_delete', { id: second.id })).toEqual({ id: second.id, deleted: true });
  expect((await refused('memory_delete', { id: second.id })).code).toBe('NOT_FOUND');
  return called;
}

/** Calls every writing tool of a read-only server: each is refused with READ_ONLY. */
export async function expectWritesRefused(client: Client, writing: readonly string[], entryId: string): Promise<void> {
  const args: Record<string, Record<string, unknown>> = {
    memory_save: { content: 'x' },
    memory_update: { id: entryId, content: 'y' },
    memory_delete: { id: entryId },
    working_memory_save: { key: 'k', data: 'v' },
    dream_apply: { planId: '0123456789ab' },
    dream_undo: { runId: '0123456789ab' },
  };
  for (const name of writing) expect((await callRefused(client, name, args[name] ?? {})).code, name).toBe('READ_ONLY');
}
