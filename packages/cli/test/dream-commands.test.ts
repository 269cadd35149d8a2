import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MemoryEntry, newId } from '@reverie/core';
import { type CycleReport } from '@reverie/dream';
import { FileConversationLog, FileMemoryStore } from '@reverie/file-store';
import { expectOneLineError, runJson, runReverie, tempDir } from './__fixtures__/run-reverie';
import { startFakeChatServer } from './__fixtures__/fake-chat-server';
import { RunFolder, runsDir } from '@reverie/file-store/internal';

type RunJson = CycleReport & { model: string | null; needsModel: string[]; recovered: string[] };
interface ShowJson {
  manifest: { runId: string; status: string };
  report: CycleReport | null;
  journal: { applied: number; conflict: number; noop: number };
  artifacts: string[];
}

let dir: ReturnType<typeof tempDir>;
let data: string[];
beforeEach(() => {
  dir = tempDir();
  data = ['--data', dir.dataPath];
});
afterEach(() => dir.remove());

/** Two exact duplicates (the model-free merge folds them into one) and one other entry. */
async function seedDuplicates(): Promise<void> {
  const memory = new FileMemoryStore({ dataPath: dir.dataPath });
  await memory.save({ content: 'The user prefers dark mode in every editor', category: 'preferences' });
  await memory.save({ content: 'The user prefers dark mode in every editor', category: 'preferences' });
  await memory.save({ content: 'The team deploys on Tuesdays', category: 'work' });
  await memory.close();
}

async function contents(): Promise<string[]> {
  return (await runJson<MemoryEntry[]>([...data, 'memory', 'list'])).map((entry) => entry.content).sort();
}

describe('reverie dream run without a model', () => {
  it('runs the model-free passes, applies the duplicate merge and says which passes need a model', async () => {
    await seedDuplicates();
    const result = await runReverie([...data, 'dream', 'run', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as RunJson;
    const needsModel = ['episode-extraction', 'skill-gap', 'skill-consolidation', 'skill-optimization', 'preference-inference'];
    expect(report.passes.map((pass) => [pass.name, pass.status])).toEqual([
      ['importance-decay', 'ok'],
      ['recall-signals', 'ok'],
      ['memory-consolidation', 'ok'],
      ...needsModel.slice(0, 4).map((name) => [name, 'skipped']),
      ['workflow-failure-analysis', 'ok'],
      ['preference-inference', 'skipped'],
      ['promotion', 'ok'],
      ['archive-retention', 'ok'],
    ]);
    expect(report.passes[2]).toMatchObject({ applied: 3, conflicts: 0 });
    expect(report).toMatchObject({ trigger: 'manual', dryRun: false, model: null, needsModel, recovered: [] });
    expect(await contents()).toEqual(['The team deploys on Tuesdays', 'The user prefers dark mode in every editor']);
    // Progress: plain lines on stderr when it is not a terminal.
    expect(result.stderr).toContain('[1/11] importance-decay (light-sleep) started\n');
    expect(result.stderr).toMatch(/^\[3\/11\] memory-consolidation: ok — 3 items, 3 applied \(\d+(\.\d)? m?s\)$/m);
    expect(result.stderr).toContain('[4/11] episode-extraction: skipped — needs a language model\n');
    expect(result.stderr).not.toContain('\x1b');
  });

  it('prints a readable report that tells how to set REVERIE_MODEL', async () => {
    await seedDuplicates();
    const result = await runReverie([...data, 'dream', 'run']);
    expect(result.code, result.stderr).toBe(0);
    const id = /^Dream run ([0-9a-f]{12}) — manual, .*, model: none$/m.exec(result.stdout)?.[1];
    expect(id).toBeDefined();
    expect(result.stdout).toMatch(/^ {2}memory-consolidation +ok — 3 items, 3 applied/m);
    expect(result.stdout).toContain(
      'memory-consolidation ran without a model: the deterministic merge of exact and near-exact duplicates only.',
    );
    expect(result.stdout).toContain(
      'episode-extraction, skill-gap, skill-consolidation, skill-optimization, preference-inference need a model and were skipped. Set REVERIE_MODEL to run them, e.g. REVERIE_MODEL=openai:gpt-4.1-mini',
    );
    expect(result.stdout).toContain(`Undo with: reverie dream undo ${id}`);
  });

  it('writes nothing in a dry run and shows the plan', async () => {
    await seedDuplicates();
    const before = await contents();
    const report = await runJson<RunJson>([...data, 'dream', 'run', '--dry-run']);
    expect(report.dryRun).toBe(true);
    expect(report.runFolder).toBeUndefined();
    const merge = report.passes.find((pass) => pass.name === 'memory-consolidation')!;
    expect(merge.status === 'ok' && merge.planned?.map((operation) => operation.op)).toEqual([
      'memory.save',
      'memory.delete',
      'memory.delete',
    ]);
    expect(await contents()).toEqual(before);
    expect(existsSync(runsDir(dir.dataPath))).toBe(false);
    const text = await runReverie([...data, 'dream', 'run', '--dry-run']);
    expect(text.stdout).toContain('(dry run: no store was changed)');
    expect(text.stdout).toMatch(/^ {6}would save memory [0-9a-f]{12} \(preferences\): /m);
  });

  it('applies the plan a dry run saved, once, and lists pending plans', async () => {
    await seedDuplicates();
    const before = await contents();
    const dry = await runJson<RunJson>([...data, 'dream', 'run', '--dry-run', '--pass', 'memory-consolidation']);
    expect(dry.planId).toMatch(/^[0-9a-f]{12}$/);
    expect(await contents()).toEqual(before);
    const plans = await runReverie([...data, 'dream', 'plans']);
    expect(plans.stdout).toContain(`Plan ${dry.planId} — made `);
    expect(plans.stdout).toContain('  memory-consolidation: 3 operation(s)');

    const applied = await runReverie([...data, 'dream', 'apply', dry.planId!]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/^ {2}memory-consolidation +ok — 3 items, 3 applied/m);
    expect(applied.stdout).toContain(`Applied plan ${dry.planId}.`);
    expect(await contents()).toEqual(['The team deploys on Tuesdays', 'The user prefers dark mode in every editor']);
    expect((await runReverie([...data, 'dream', 'plans'])).stdout).toContain('No pending dream plan.');

    expectOneLineError(await runReverie([...data, 'dream', 'apply', dry.planId!]), 1, /already applied, by run [0-9a-f]{12}/);
    expectOneLineError(await runReverie([...data, 'dream', 'apply', '0123456789ab']), 4, /No dream plan "0123456789ab"/);
  });

  it('runs one phase or named passes, and refuses unknown passes', async () => {
    await seedDuplicates();
    const phase = await runJson<RunJson>([...data, 'dream', 'run', '--phase', 'light-sleep']);
    expect(phase.passes.map((pass) => pass.name)).toEqual(['importance-decay', 'recall-signals']);
    const named = await runJson<RunJson>([...data, 'dream', 'run', '--pass', 'archive-retention, memory-consolidation']);
    expect(named.passes.map((pass) => pass.name)).toEqual(['memory-consolidation', 'archive-retention']);
    expectOneLineError(
      await runReverie([...data, 'dream', 'run', '--pass', 'daydream']),
      2,
      /Unknown pass "daydream": the passes are importance-decay, /,
    );
  });

  it('finishes a run a crash interrupted before it starts', async () => {
    mkdirSync(dir.dataPath);
    const crashed = newId();
    await RunFolder.create(dir.dataPath, crashed, 'schedule', new Date());
    const result = await runReverie([...data, 'dream', 'run', '--phase', 'light-sleep', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as RunJson).recovered).toEqual([crashed]);
    expect(result.stderr).toContain(`Recovered dream run ${crashed}, which a crash had interrupted.`);
    expect((await runJson<ShowJson>([...data, 'dream', 'show', crashed])).manifest.status).toBe('interrupted');
  });
});

describe('reverie dream show and undo', () => {
  it('shows a run from its folder and undoes it', async () => {
    await seedDuplicates();
    const before = (await runJson<MemoryEntry[]>([...data, 'memory', 'list'])).map((entry) => entry.id).sort();
    const run = await runJson<RunJson>([...data, 'dream', 'run']);

    const shown = await runJson<ShowJson>([...data, 'dream', 'show', run.runId]);
    expect(shown.manifest).toMatchObject({ runId: run.runId, status: 'complete' });
    expect(shown.journal).toEqual({ applied: 3, conflict: 0, noop: 0 });
    expect(shown.report?.passes.map((pass) => pass.name)).toEqual(run.passes.map((pass) => pass.name));
    expect(shown.artifacts).toEqual(
      expect.arrayContaining(['run.json', 'report.json', 'summary.md', 'journal.jsonl', 'plan.memory-consolidation.json']),
    );
    const text = await runReverie([...data, 'dream', 'show', 'latest']);
    expect(text.stdout).toMatch(new RegExp(`^Dream run ${run.runId} — complete\\n {2}trigger: {3}manual\\n`));
    expect(text.stdout).toMatch(/^ {2}memory-consolidation +ok — 3 items, 3 applied/m);

    const undone = await runReverie([...data, 'dream', 'undo', run.runId]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toMatch(new RegExp(`^Undid dream run ${run.runId}: 2 restored, 1 removed, 0 kept\\.\\n`));
    expect((await runJson<MemoryEntry[]>([...data, 'memory', 'list'])).map((entry) => entry.id).sort()).toEqual(before);
    expect((await runJson<ShowJson>([...data, 'dream', 'show', run.runId])).manifest.status).toBe('undone');

    expectOneLineError(await runReverie([...data, 'dream', 'undo', run.runId]), 1, new RegExp(`Dream run ${run.runId} was already undone`));
    expectOneLineError(await runReverie([...data, 'dream', 'undo', 'ffffffffffff']), 4, /No dream run "ffffffffffff"/);
    expectOneLineError(await runReverie([...data, 'dream', 'show', 'ffffffffffff']), 4, /no dream run ffffffffffff in /);
  });
});

describe('reverie dream run with a model', () => {
  const today = new Date().toISOString().slice(0, 10);

  async function seedConversation(): Promise<void> {
    const log = new FileConversationLog({ dataPath: dir.dataPath });
    await log.append({ sessionId: 's1', role: 'user', content: 'I adopted a cat today, her name is Miso.' });
    await log.append({ sessionId: 's1', role: 'assistant', content: 'Congratulations on adopting Miso!' });
    await log.close();
  }

  it('talks to any OpenAI-compatible endpoint named by REVERIE_MODEL, with REVERIE_API_KEY and --options', async () => {
    await seedConversation();
    const server = await startFakeChatServer(() => ({
      content: JSON.stringify({
        episodes: [{ content: 'The user adopted a cat named Miso', when: { point: today }, tags: ['pets'], sessionIds: ['s1'] }],
      }),
    }));
    try {
      const options = join(dir.root, 'dreaming.json');
      writeFileSync(options, JSON.stringify({ episodes: { category: 'life/events' } }));
      const env = { REVERIE_MODEL: `${server.url}#test-model`, REVERIE_API_KEY: 'secret-key' };
      const result = await runReverie([...data, 'dream', 'run', '--pass', 'episode-extraction', '--options', options, '--format', 'json'], {
        env,
      });
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as RunJson;
      expect(report.model).toBe(`${server.url}#test-model`);
      expect(report.needsModel).toEqual([]);
      expect(report.passes[0]).toMatchObject({
        name: 'episode-extraction',
        status: 'ok',
        applied: 1,
        refusals: [],
        tokens: { input: 120, output: 30 },
      });
      expect(server.requests.map((request) => [request.path, request.body.model, request.headers.authorization])).toEqual([
        ['/v1/chat/completions', 'test-model', 'Bearer secret-key'],
      ]);
      const episodes = await runJson<MemoryEntry[]>([...data, 'memory', 'list', '--category', 'life/events']);
      expect(episodes.map((entry) => [entry.content, entry.tags])).toEqual([['The user adopted a cat named Miso', ['episode', 'pets']]]);
    } finally {
      await server.close();
    }
  });

  it('exits 1 with one line on stderr when a pass fails, after printing the report', async () => {
    await seedConversation();
    const server = await startFakeChatServer(() => ({ status: 400, error: 'model test-model does not exist' }));
    try {
      const result = await runReverie([...data, 'dream', 'run', '--pass', 'episode-extraction', '--format', 'json'], {
        env: { REVERIE_MODEL: `${server.url}#test-model` },
      });
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as RunJson;
      expect(report.passes[0]).toMatchObject({ name: 'episode-extraction', status: 'failed' });
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('reverie: '));
      expect(errors).toEqual([`reverie: dream run ${report.runId}: episode-extraction failed (see 'reverie dream show ${report.runId}')`]);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const shown = await runReverie([...data, 'dream', 'show', report.runId]);
      expect(shown.stdout).toMatch(/^Dream run [0-9a-f]{12} — failed$/m);
      expect(shown.stdout).toContain('model test-model does not exist');
    } finally {
      await server.close();
    }
  });

  it('refuses dreaming options the builder rejects, as a usage error', async () => {
    const options = join(dir.root, 'dreaming.json');
    writeFileSync(options, JSON.stringify({ episodes: { maxTurnsPerRun: -1 } }));
    expectOneLineError(
      await runReverie([...data, 'dream', 'run', '--options', options]),
      2,
      /Invalid Reverie options — withDreaming\.episodes\.maxTurnsPerRun/,
    );
    expectOneLineError(
      await runReverie([...data, 'dream', 'run', '--options', join(dir.root, 'missing.json')]),
      2,
      /cannot read the options file .*missing\.json \(ENOENT\)/,
    );
  });
});
