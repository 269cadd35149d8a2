import { MockLanguageModelV3 } from 'ai/test';
import { createReverie } from 'reverie';
import { afterEach, describe, expect, it } from 'vitest';
import { dreamModel } from '../../reverie/test/__fixtures__/dream-model';
import { OPERATIONS } from '../src/index';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The scripted dream model, answering only once `open()` is called: the test looks in between. */
function heldModel() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const scripted = dreamModel();
  const model = new MockLanguageModelV3({
    doGenerate: async (call) => {
      await opened;
      return scripted.doGenerate(call);
    },
  });
  return { model, open };
}

const withModel =
  (gates: { minHours?: number } = {}, model: MockLanguageModelV3 = dreamModel()) =>
  (dataPath: string) =>
    createReverie({ dataPath, model }).withMemory().withWorkingMemory().withSkills().withConversationLog().withDreaming({ gates }).build();

async function seed(served: Served, topics: number): Promise<void> {
  for (let topic = 0; topic < topics; topic++) {
    await served.reverie.memory!.save({ content: `The user mentioned project falcon, topic-${topic}, on Monday`, category: 'projects' });
    await served.reverie.memory!.save({ content: `Project falcon came up again, topic-${topic}, on Tuesday`, category: 'projects' });
  }
}

describe('the HTTP API: the dream cycle', () => {
  it('runs a dream cycle (scripted model) while 50 concurrent searches are all answered', async () => {
    const held = heldModel();
    served = await serveFresh({}, withModel({}, held.model));
    await seed(served, 6);
    const before = (await served.reverie.memory!.list()).length;
    const run = served.call('/api/dream/run', { method: 'POST', json: { reason: 'http-test' } });
    while (held.model.doGenerateCalls.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const searches = Array.from({ length: 50 }, (_, i) =>
      served!.call(`/api/memory/search?query=${encodeURIComponent(`falcon topic-${i % 6}`)}&limit=3`),
    );
    const answers = await Promise.all(searches);
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    for (const answer of answers) expect(((await answer.json()) as unknown[]).length).toBeGreaterThan(0);
    expect((await served.reverie.dreams.lockState()).status).toBe('held');
    held.open();

    const report = (await (await run).json()) as { runId: string; trigger: string; passes: Array<{ name: string; status: string }> };
    expect(report.trigger).toBe('http-test');
    expect(report.passes.find((pass) => pass.name === 'memory-consolidation')).toMatchObject({ status: 'ok' });
    const after = (await served.reverie.memory!.list()).length;
    expect(after).toBeLessThan(before);

    const shown = (await (await served.call(`/api/dream/runs/${report.runId}`)).json()) as { manifest: { runId: string } };
    expect(shown.manifest.runId).toBe(report.runId);
    const undone = await served.call(`/api/dream/runs/${report.runId}/undo`, { method: 'POST' });
    expect(undone.status).toBe(200);
    expect((await served.reverie.memory!.list()).length).toBe(before);
  });

  it('answers a blocked run with 409 DREAM_BLOCKED naming the gate, and runs nothing', async () => {
    served = await serveFresh({}, withModel({ minHours: 6 }));
    await seed(served, 1);
    expect((await served.call('/api/dream/run', { method: 'POST' })).status).toBe(200);
    const blocked = await served.call('/api/dream/run', { method: 'POST' });
    expect(blocked.status).toBe(409);
    expect(await blocked.json()).toMatchObject({
      error: { code: 'DREAM_BLOCKED', details: { gate: 'time', reason: expect.stringContaining('6 h') } },
    });
    expect(await served.reverie.dreams.listRuns()).toHaveLength(1);
  });

  it('plans, lists the plan, applies it once, and refuses unknown ids with 404', async () => {
    served = await serveFresh({}, withModel());
    await seed(served, 2);
    const plan = (await (await served.call('/api/dream/plan', { method: 'POST', json: { phase: 'light-sleep' } })).json()) as {
      planId: string;
    };
    const plans = (await (await served.call('/api/dream/plans')).json()) as Array<{ planId: string }>;
    expect(plans.map((saved) => saved.planId)).toEqual([plan.planId]);
    expect((await served.call(`/api/dream/plans/${plan.planId}/apply`, { method: 'POST' })).status).toBe(200);
    const again = await served.call(`/api/dream/plans/${plan.planId}/apply`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'PLAN_APPLIED' } });
    expect((await served.call('/api/dream/plans/0123456789ab/apply', { method: 'POST' })).status).toBe(404);
    expect((await served.call('/api/dream/runs/0123456789ab')).status).toBe(404);
    expect((await served.call('/api/dream/plan', { method: 'POST', json: { passes: [] } })).status).toBe(400);
  });

  it('accepts a trigger at once (202) and runs it in the background', async () => {
    served = await serveFresh({}, withModel());
    await seed(served, 1);
    const accepted = await served.call('/api/dream/trigger', { method: 'POST', json: { reason: 'webhook' } });
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ accepted: true, trigger: 'webhook' });
    for (let waited = 0; (await served.reverie.dreams.listRuns()).length === 0; waited += 50) {
      if (waited > 10_000) throw new Error('the triggered run never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [run] = await served.reverie.dreams.listRuns();
    expect(run!.trigger).toBe('webhook');
  });

  it('serves status and doctor', async () => {
    served = await serveFresh({}, withModel());
    const status = (await (await served.call('/api/dream/status?windowHours=48')).json()) as { windowHours: number };
    expect(status.windowHours).toBe(48);
    expect((await served.call('/api/dream/status?windowHours=soon')).status).toBe(400);
    const doctor = (await (await served.call('/api/doctor')).json()) as {
      dataPath: string;
      checks: Array<{ name: string; status: string }>;
    };
    expect(doctor.dataPath).toBe(served.dataPath);
    expect(doctor.checks.map((check) => check.name)).toEqual([
      'memory',
      'skills',
      'conversation log',
      'quarantine',
      'dream runs',
      'dream lock',
      'last runs',
    ]);
  });
});

describe('the HTTP API: working memory and skills', () => {
  it('binds working memory to the X-Reverie-Session header, and asks for one', async () => {
    served = await serveFresh();
    const missing = await served.call('/api/working-memory', { method: 'POST', json: { key: 'inbox', data: 'x' } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: 'INVALID_INPUT', message: expect.stringContaining('X-Reverie-Session') } });
    const saved = await served.call('/api/working-memory', {
      method: 'POST',
      json: { key: 'inbox', data: '3 unread' },
      headers: { 'x-reverie-session': 'ana' },
    });
    expect(await saved.json()).toMatchObject({ key: 'session/ana/inbox' });
    const read = await served.call('/api/working-memory/entry?key=inbox', { headers: { 'x-reverie-session': 'ana' } });
    expect(await read.json()).toMatchObject({ value: '3 unread' });
    expect((await served.call('/api/working-memory/entry?key=inbox', { headers: { 'x-reverie-session': 'bob' } })).status).toBe(404);
  });

  it('reads a skill whose name has slashes, encoded in the path', async () => {
    served = await serveFresh();
    await served.reverie.skills!.save({ name: 'mcp/email', summary: 'Send mail', content: 'Use the mail tool.' });
    expect(await (await served.call('/api/skills?prefix=mcp')).json()).toEqual([
      expect.objectContaining({ name: 'mcp/email', summary: 'Send mail' }),
    ]);
    expect(await (await served.call('/api/skills/mcp%2Femail')).json()).toMatchObject({ name: 'mcp/email', content: 'Use the mail tool.' });
    expect((await served.call('/api/skills/mcp%2Fnone')).status).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('is served without the token and describes every operation with its schema', async () => {
    served = await serveFresh({ token: 'openapi-token-0123456789' });
    const answer = await fetch(`${served.server.url}/openapi.json`);
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            parameters?: Array<{ name: string; in: string; required: boolean }>;
            requestBody?: { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } };
          }
        >
      >;
    };
    expect(document.openapi).toBe('3.1.0');
    const operationIds = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect(operationIds.sort()).toEqual(OPERATIONS.map((operation) => operation.name).sort());
    expect(document.paths['/api/memory/search']!.get!.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'query', in: 'query', required: true }),
        expect.objectContaining({ name: 'limit', in: 'query', required: false }),
      ]),
    );
    expect(document.paths['/api/memory/{id}']!.delete!.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
    const save = document.paths['/api/memory']!.post!.requestBody!.content['application/json'].schema;
    expect(save.required).toEqual(['content']);
    expect(Object.keys(save.properties)).toEqual(['content', 'category', 'tags', 'importance']);
    const update = document.paths['/api/memory/{id}']!.post!.requestBody!.content['application/json'].schema;
    expect(Object.keys(update.properties)).not.toContain('id');
    expect(document.paths['/api/working-memory']!.post!.parameters).toEqual([
      expect.objectContaining({ name: 'X-Reverie-Session', in: 'header' }),
    ]);
  });
});

describe('docs/server.md', () => {
  it('lists every operation in its routes table, with its route and tool name', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../../docs/server.md', import.meta.url), 'utf8');
    for (const operation of OPERATIONS) {
      expect(doc, operation.name).toContain(
        `| \`${operation.http.method} ${operation.http.path}\` | \`${operation.name}\` | ${operation.access === 'write' ? 'writes' : 'reads'} |`,
      );
    }
  });
});
