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
export async function callRefused(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
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
  const ok = <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) => (
    called.add(name), callOk<T>(client, name, args)
  );
  const refused = (name: string, args: Record<string, unknown> = {}) => (called.add(name), callRefused(client, name, args));

  const first = await ok<{ id: string }>('save_memory', {
    content: 'The user flies to Lisbon in May topic-1',
    category: 'travel',
    tags: ['trip'],
  });
  const second = await ok<{ id: string }>('save_memory', { content: 'The Lisbon trip is booked for May topic-1', category: 'travel' });
  expect((await refused('save_memory', { content: 42 })).code).toBe('INVALID_INPUT');
  expect((await refused('save_memory', { content: 'x', category: '../../etc' })).code).toBe('INVALID_CATEGORY');
  expect(await ok('update_memory', { id: first.id, importance: 0.8 })).toMatchObject({ id: first.id, importance: 0.8, category: 'travel' });
  expect((await refused('update_memory', { id: '0123456789ab', content: 'y' })).code).toBe('NOT_FOUND');
  expect(await ok('get_memory', { id: second.id })).toMatchObject({ content: 'The Lisbon trip is booked for May topic-1' });
  expect((await refused('get_memory', { id: '0123456789ab' })).code).toBe('NOT_FOUND');
  expect((await refused('get_memory', { id: 'not-an-id' })).code).toBe('INVALID_ID');
  // SPEC B10: saved through the server, so written by the API.
  expect(await ok('get_memory_lineage', { id: second.id })).toMatchObject({
    id: second.id,
    steps: [{ kind: 'written', id: second.id, origin: 'api' }],
    folded: 0,
  });
  expect((await refused('get_memory_lineage', { id: '0123456789ab' })).code).toBe('NOT_FOUND');
  const hits = await ok<Array<{ entry: { id: string } }>>('search_memory', { query: 'Lisbon trip', limit: 5 });
  expect(hits.map((hit) => hit.entry.id).sort()).toEqual([first.id, second.id].sort());
  expect((await refused('search_memory', {})).code).toBe('INVALID_INPUT');
  expect(await ok('list_memory', { category: 'travel' })).toMatchObject({ total: 2 });
  expect(await ok('list_memory_categories')).toEqual([{ category: 'travel', count: 2 }]);

  expect(await ok('save_to_working_memory', { key: 'inbox', data: '3 unread', tags: ['mail'] })).toMatchObject({
    key: expect.stringMatching(/^session\/.+\/inbox$/),
  });
  expect(await ok('get_from_working_memory', { key: 'inbox' })).toMatchObject({ found: true, value: '3 unread' });
  expect((await refused('get_from_working_memory', { key: 'drafts' })).code).toBe('NOT_FOUND');
  expect(await ok('list_working_memory')).toMatchObject({ entries: [expect.objectContaining({ tags: ['mail'] })] });
  expect(await ok<unknown[]>('search_working_memory', { query: 'unread' })).toHaveLength(1);
  expect((await refused('save_to_working_memory', { key: 'patrol/other/x', data: 'mine' })).code).toBe('NAMESPACE_VIOLATION');

  expect(await ok<Array<{ name: string }>>('list_skills')).toContainEqual(expect.objectContaining({ name: skill }));
  expect(await ok('get_skill', { name: skill })).toMatchObject({ name: skill, content: expect.any(String) });
  expect((await refused('get_skill', { name: 'no/such-skill' })).code).toBe('NOT_FOUND');

  const cycle = await ok<{ runId: string; dryRun: boolean }>('run_dream', { reason: 'test' });
  expect(cycle.dryRun).toBe(false);
  const blocked = await refused('run_dream');
  expect(blocked).toMatchObject({ code: 'DREAM_BLOCKED', details: { gate: 'time' } });
  expect(blocked.message).toContain('time gate');
  expect(await ok('trigger_dream', { reason: 'test' })).toEqual({ accepted: true, trigger: 'test' });

  const plan = await ok<{ planId: string; dryRun: boolean }>('plan_dream', { phase: 'light-sleep' });
  expect(plan).toMatchObject({ dryRun: true, planId: expect.any(String) });
  expect((await refused('plan_dream', { phase: 'nap' })).code).toBe('INVALID_INPUT');
  expect(await ok<Array<{ planId: string }>>('list_dream_plans')).toContainEqual(expect.objectContaining({ planId: plan.planId }));
  const applied = await ok<{ runId: string; planId: string }>('apply_dream_plan', { planId: plan.planId });
  expect(applied.planId).toBe(plan.planId);
  expect((await refused('apply_dream_plan', { planId: plan.planId })).code).toBe('PLAN_APPLIED');
  expect((await refused('apply_dream_plan', { planId: '0123456789ab' })).code).toBe('PLAN_NOT_FOUND');

  const status = await ok<{ phases: Array<{ phase: string; runs: number }> }>('get_dream_status', { windowHours: 24 });
  expect(status.phases.map((phase) => phase.phase)).toEqual(['light-sleep', 'rem', 'deep-sleep']);
  const runs = await ok<Array<{ runId: string }>>('list_dream_runs');
  expect(runs.map((run) => run.runId)).toEqual(expect.arrayContaining([applied.runId, cycle.runId]));
  expect(await ok('show_dream_run', { runId: cycle.runId })).toMatchObject({ manifest: { runId: cycle.runId } });
  expect(await ok('show_dream_run', { runId: 'latest' })).toMatchObject({ manifest: { runId: expect.any(String) } });
  expect((await refused('show_dream_run', { runId: '0123456789ab' })).code).toBe('RUN_NOT_FOUND');
  expect(await ok('undo_dream_run', { runId: cycle.runId })).toMatchObject({ runId: cycle.runId });
  expect((await refused('undo_dream_run', { runId: '0123456789ab' })).code).toBe('RUN_NOT_FOUND');

  const doctor = await ok<{ checks: Array<{ name: string; status: string }> }>('check_reverie');
  expect(doctor.checks.find((check) => check.name === 'memory')).toMatchObject({ status: 'ok' });

  // SPEC B14: a soft forget by subject takes the entry out of recall, in a run that undo reverses.
  const third = await ok<{ id: string }>('save_memory', { content: 'The user’s sister Alice got divorced', category: 'people' });
  const receipt = await ok<{ forgotten: Array<{ id: string }>; runId: string }>('forget_memory', { subject: 'Alice divorce' });
  expect(receipt.forgotten).toEqual([{ id: third.id, category: 'people' }]);
  expect((await refused('get_memory', { id: third.id })).code).toBe('NOT_FOUND');
  expect((await refused('forget_memory', { text: 'a', subject: 'b' })).code).toBe('INVALID_INPUT');
  // mode erase: every copy of the entry's text goes, and the receipt says so.
  const fourth = await ok<{ id: string }>('save_memory', { content: 'Alice keeps a pet quokka named Zephyrine' });
  const erased = await ok<{ mode: string; forgotten: Array<{ id: string }> }>('forget_memory', { text: 'zephyrine', mode: 'erase' });
  expect(erased).toMatchObject({ mode: 'erase', forgotten: [{ id: fourth.id, category: 'general' }] });
  expect((await refused('get_memory', { id: fourth.id })).code).toBe('NOT_FOUND');
  expect((await refused('forget_memory', { ids: [third.id], mode: 'shred' })).code).toBe('INVALID_INPUT');

  expect(await ok('delete_memory', { id: second.id })).toEqual({ id: second.id, deleted: true });
  expect((await refused('delete_memory', { id: second.id })).code).toBe('NOT_FOUND');
  return called;
}

/** Calls every writing tool of a read-only server: each is refused with READ_ONLY. */
export async function expectWritesRefused(client: Client, writing: readonly string[], entryId: string): Promise<void> {
  const args: Record<string, Record<string, unknown>> = {
    save_memory: { content: 'x' },
    update_memory: { id: entryId, content: 'y' },
    delete_memory: { id: entryId },
    forget_memory: { ids: [entryId] },
    save_to_working_memory: { key: 'k', data: 'v' },
    apply_dream_plan: { planId: '0123456789ab' },
    undo_dream_run: { runId: '0123456789ab' },
  };
  for (const name of writing) expect((await callRefused(client, name, args[name] ?? {})).code, name).toBe('READ_ONLY');
}
