import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isReverieError } from '@reverie/core';
import { type FileSystemFaults, injectFileSystemFaults } from '@reverie/core/testing';
import { createReverie } from 'reverie';
import { afterEach, describe, expect, it } from 'vitest';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
let faults: FileSystemFaults | undefined;
afterEach(async () => {
  faults?.restore();
  faults = undefined;
  await served?.close();
  served = undefined;
});

type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };

/** What no error body may hold: the data directory's absolute path, this process's id, this machine's name, Node's wording. */
function expectNothingInternal(body: ErrorBody, dataPath: string): void {
  const text = JSON.stringify(body);
  expect(text).not.toContain(dataPath);
  expect(text).not.toMatch(/"\/(tmp|home|var|private|Users)\//);
  expect(text).not.toContain(String(process.pid));
  expect(text).not.toContain(hostname());
  expect(text).not.toMatch(/injected fault|\bat position\b|\n\s+at /);
}

/** A dream lock held by a live process of this machine (this one), as another runner leaves it. */
function holdDreamLock(dataPath: string): void {
  mkdirSync(join(dataPath, '_system', 'dreams'), { recursive: true });
  writeFileSync(
    join(dataPath, '_system', 'dreams', 'lock'),
    JSON.stringify({
      pid: process.pid,
      host: hostname(),
      acquiredAt: new Date().toISOString(),
      runId: 'a1b2c3d4e5f6',
      token: 'lock-token-1',
    }),
  );
}

describe('error bodies say what happened, not where or who (SPEC O10)', () => {
  it('answers a failing disk with IO_ERROR naming <data>/…, and logs the full error', async () => {
    const logged: unknown[] = [];
    served = await serveFresh({ onError: (error) => logged.push(error) });
    faults = injectFileSystemFaults();
    faults.set({ errno: 'EIO', under: served.dataPath });
    const answer = await served.call('/api/memory', { method: 'POST', json: { content: 'The user sails' } });
    expect(answer.status).toBe(500);
    const body = (await answer.json()) as ErrorBody;
    expect(body.error.code).toBe('IO_ERROR');
    expect(body.error.message).toContain('<data>/');
    expectNothingInternal(body, served.dataPath);
    expect(logged).toHaveLength(1);
    expect(isReverieError(logged[0], 'IO_ERROR') && logged[0].message).toContain(served.dataPath);
  });

  it("answers DREAM_BLOCKED and LOCK_HELD without the holder's process id, host name or lock path", async () => {
    const logged: unknown[] = [];
    served = await serveFresh({ onError: (error) => logged.push(error) }, (dataPath) =>
      createReverie({ dataPath }).withMemory().withDreaming({}).build(),
    );
    const plan = (await (await served.call('/api/dream/plan', { method: 'POST', json: {} })).json()) as { planId: string };
    holdDreamLock(served.dataPath);
    const blocked = await served.call('/api/dream/run', { method: 'POST', json: {} });
    expect(blocked.status).toBe(409);
    const blockedBody = (await blocked.json()) as ErrorBody;
    expect(blockedBody.error).toMatchObject({
      code: 'DREAM_BLOCKED',
      message: expect.stringContaining('another process'),
      details: { gate: 'lock' },
    });
    expectNothingInternal(blockedBody, served.dataPath);

    const apply = await served.call(`/api/dream/plans/${plan.planId}/apply`, { method: 'POST', json: {} });
    expect(apply.status).toBe(409);
    const applyBody = (await apply.json()) as ErrorBody;
    expect(applyBody.error).toMatchObject({
      code: 'LOCK_HELD',
      details: { lock: '<data>/_system/dreams/lock', holder: { runId: 'a1b2c3d4e5f6' } },
    });
    expectNothingInternal(applyBody, served.dataPath);
    expect(JSON.stringify(applyBody)).not.toContain('lock-token-1');
    // What the answers left out is in the log.
    expect(logged.map((error) => isReverieError(error) && error.code)).toEqual(['DREAM_BLOCKED', 'LOCK_HELD']);
  });

  it("refuses a body that is not JSON without the parser's wording", async () => {
    served = await serveFresh();
    const answer = await served.call('/api/memory', {
      method: 'POST',
      body: '{"content": }',
      headers: { 'content-type': 'application/json' },
    });
    const body = (await answer.json()) as ErrorBody;
    expect(body.error).toEqual({ code: 'INVALID_INPUT', message: 'The request body is not valid JSON: send a JSON object.' });
  });

  it('answers an ordinary refusal as it was, and does not log it', async () => {
    const logged: unknown[] = [];
    served = await serveFresh({ onError: (error) => logged.push(error) });
    const answer = await served.call('/api/memory', { method: 'POST', json: { content: 'x', category: '../../etc' } });
    const body = (await answer.json()) as ErrorBody;
    expect(body.error.code).toBe('INVALID_CATEGORY');
    expect(body.error.message).toContain('../../etc');
    expect(logged).toEqual([]);
  });
});
