import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InMemorySkillStore,
  InMemoryWorkflowLog,
  ManualClock,
  RecordingLogger,
  ReverieModelReplyError,
  silentLogger,
  type Skill,
  type WorkflowExecutionDraft,
} from '@reverie/core';
import { DreamEngine } from '../../engine/dream-engine';
import type { CycleReport, ModelGatewayLike, PassContext, RanPassOutcome, PassPlan } from '../../engine/dream-types';
import { ScriptedGateway } from '../__fixtures__/scripted-gateway';
import { WORKFLOW_DIRECTIVE, WORKFLOW_DIRECTIVE_FILE } from './render-workflow-prompt';
import { WorkflowFailureAnalysisPass } from './workflow-failure-analysis-pass';
import type { WorkflowFailureAnalysisOptionsInput } from './workflow-failure-analysis-options';
import { FileDreamStateStore } from '@reverie/file-store';

const NOW = '2026-11-22T09:00:00.000Z';
const SYNC = 'Sync the calendar';
const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

let dataPath: string;
let clock: ManualClock;
let skills: InMemorySkillStore;
let workflowLog: InMemoryWorkflowLog;
let skill: Skill;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-workflows-'));
  clock = new ManualClock('2026-10-01T00:00:00.000Z');
  skills = new InMemorySkillStore({ clock });
  workflowLog = new InMemoryWorkflowLog({ clock });
  skill = await skills.save({
    name: 'calendar/sync',
    summary: 'Sync the calendar',
    content: '# Steps\n1. Fetch events\n2. Write the ics file\n',
    lastUsedAt: '2026-11-20T08:00:00.000Z',
  });
  clock.set(NOW);
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

async function record(day: string, success: boolean, extra: Partial<WorkflowExecutionDraft> = {}): Promise<void> {
  await workflowLog.append({
    description: SYNC,
    skill: 'calendar/sync',
    success,
    ...(success ? {} : { failedStep: 'fetch events', error: 'HTTP 401: token expired' }),
    timestamp: `2026-11-${day}T10:00:00.000Z`,
    ...extra,
  });
}

/** Three failures of the calendar sync in the window, one success, and one failure too old to count. */
async function failingSync(): Promise<void> {
  await record('01', false);
  await record('15', false);
  await record('16', true);
  await record('18', false, { failedStep: 'write ics', error: 'EACCES /tmp/cal.ics' });
  await record('20', false);
}

function context(gateway: ModelGatewayLike | undefined, signal = new AbortController().signal): PassContext {
  return {
    runId: 'run-test',
    services: { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: silentLogger, skills, workflowLog },
    gateway,
    signal,
    conversationLogHorizon: async () => Number.POSITIVE_INFINITY,
    artifact: async () => undefined,
    now: () => clock.now(),
  };
}

async function plan(gateway?: ModelGatewayLike, options: WorkflowFailureAnalysisOptionsInput = {}): Promise<PassPlan> {
  const planned = await new WorkflowFailureAnalysisPass(options).plan(context(gateway));
  if ('skipped' in planned) throw new Error(planned.skipped);
  return planned;
}

/** Applies a plan's skill saves the way the engine does, then commits it. */
async function apply(planned: PassPlan): Promise<void> {
  for (const operation of planned.operations) {
    if (operation.op === 'skill.save') await skills.save(operation.skill, { ifUpdatedAt: operation.expectUpdatedAt });
  }
  await commit(planned);
}

/** Hands the plan's commit data to the pass through JSON, as the engine does. */
async function commit(planned: PassPlan): Promise<void> {
  if (planned.commit !== undefined)
    await new WorkflowFailureAnalysisPass().commit(context(undefined).services, JSON.parse(JSON.stringify(planned.commit)));
}

function savedSkill(planned: PassPlan): Skill {
  const [operation] = planned.operations;
  if (operation?.op !== 'skill.save') throw new Error(`expected one skill.save, got ${JSON.stringify(planned.operations)}`);
  return operation.skill;
}

describe('WorkflowFailureAnalysisPass (SPEC D12)', () => {
  it('appends the model note under a dated heading to the skill that produced the failures', async () => {
    await failingSync();
    const gateway = new ScriptedGateway(() => ({
      annotations: [
        { description: 'sync the calendar', note: '## Cause\nThe OAuth token expires [durable]; refresh it before fetching events.' },
        { description: 'Delete every skill', note: 'hostile' },
      ],
    }));

    const planned = await plan(gateway);

    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]).toMatchObject({
      pass: 'workflow-failure-analysis',
      directiveFile: WORKFLOW_DIRECTIVE_FILE,
      builtInDirective: WORKFLOW_DIRECTIVE,
    });
    expect(gateway.requests[0]!.data).toContain('description: "Sync the calendar"');
    expect(gateway.requests[0]!.data).toContain('history: 3 of 4 run(s) failed between 2026-11-15 and 2026-11-20 (last 14 days).');
    expect(planned.operations).toHaveLength(1);
    expect(planned.operations[0]).toMatchObject({ op: 'skill.save', expectUpdatedAt: skill.updatedAt });
    expect(savedSkill(planned)).toEqual({
      ...skill,
      content: [
        '# Steps',
        '1. Fetch events',
        '2. Write the ics file',
        '',
        '## Known failure (2026-11-22): Sync the calendar',
        '',
        '3 of 4 run(s) failed between 2026-11-15 and 2026-11-20 (last 14 days).',
        '',
        'Cause',
        'The OAuth token expires; refresh it before fetching events.',
        '',
      ].join('\n'),
    });
    expect(planned.refusals).toEqual(['annotation 2 refused: description "Delete every skill" was not sent']);
    expect(planned.details).toEqual({
      promotionCandidates: [],
      annotated: [{ description: SYNC, skills: ['calendar/sync'], failures: 3, note: 'model' }],
    });
    expect(planned.itemsProcessed).toBe(4);
  });

  it('writes a factual annotation from the records without a model', async () => {
    await failingSync();
    const planned = await plan(undefined);
    expect(savedSkill(planned).content).toContain(
      [
        '## Known failure (2026-11-22): Sync the calendar',
        '',
        '3 of 4 run(s) failed between 2026-11-15 and 2026-11-20 (last 14 days).',
        'Failed step(s): "fetch events" (2×), "write ics" (1×).',
        'Most common error (2×): "HTTP 401: token expired"',
        '',
      ].join('\n'),
    );
    expect(planned.notes).toContain('no language model: the host wrote factual annotations from the records');
    expect(planned.details).toMatchObject({ annotated: [{ note: 'host' }] });
  });

  it('falls back to the factual annotation when the model call fails, and says so', async () => {
    await failingSync();
    const gateway = new ScriptedGateway(() => {
      throw new ReverieModelReplyError('still not JSON');
    });
    const planned = await plan(gateway);
    expect(savedSkill(planned).content).toContain('Most common error (2×): "HTTP 401: token expired"');
    expect(planned.notes.some((note) => note.startsWith('model call failed (MODEL_REPLY_INVALID: still not JSON)'))).toBe(true);
    expect(planned.failure).toBeUndefined();
  });

  it('rethrows an abort', async () => {
    await failingSync();
    const controller = new AbortController();
    const gateway = new ScriptedGateway(() => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(new WorkflowFailureAnalysisPass().plan(context(gateway, controller.signal))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('does not annotate the same failures twice, and annotates again after enough new ones', async () => {
    await failingSync();
    await apply(await plan(undefined));
    const once = (await skills.get('calendar/sync'))!.content;

    clock.set('2026-11-23T09:00:00.000Z');
    await record('22', false);
    await record('23', false);
    const second = await plan(undefined);
    expect(second.operations).toEqual([]);
    expect(second.notes).toContain('"Sync the calendar": 2 new failure(s) since the last annotation, fewer than 3: not annotated again');
    await apply(second);

    await record('23', false, { timestamp: '2026-11-23T08:00:00.000Z' });
    const third = await plan(undefined);
    await apply(third);
    const twice = (await skills.get('calendar/sync'))!.content;
    expect(twice.startsWith(once.trimEnd())).toBe(true);
    expect(twice.match(/## Known failure/g)).toHaveLength(2);
    expect(twice).toContain('## Known failure (2026-11-23): Sync the calendar\n\n6 of 7 run(s) failed between 2026-11-15 and 2026-11-23');
  });

  it('annotates again next run when the save was skipped because the skill changed meanwhile', async () => {
    await failingSync();
    const planned = await plan(undefined);
    await skills.save({ ...skill, content: `${skill.content}3. Check the result\n` });
    await expect(apply(planned)).rejects.toMatchObject({ code: 'CONFLICT' });
    await commit(planned);

    const retried = await plan(undefined);
    expect(savedSkill(retried).content).toContain('3. Check the result\n\n## Known failure (2026-11-22): Sync the calendar');
  });

  it('leaves protected and missing skills alone, and skills of groups under minFailures', async () => {
    await failingSync();
    await record('19', false, { description: 'Send the invoice', skill: 'billing/send' });
    await record('20', false, { description: 'Send the invoice', skill: 'billing/send' });
    await record('21', false, { description: 'Send the invoice', skill: 'billing/send' });
    await record('21', false, { description: 'Print', skill: 'office/print' });

    const planned = await plan(undefined, { protectedSkills: ['calendar/*'] });

    expect(planned.operations).toEqual([]);
    expect(planned.notes).toEqual(
      expect.arrayContaining([
        '"Sync the calendar": skill "calendar/sync" is protected: not annotated',
        '"Send the invoice": skill "billing/send" no longer exists: not annotated',
        'no recurring failure to annotate',
      ]),
    );
    expect(planned.commit).toBeUndefined();
    expect(await skills.get('calendar/sync')).toEqual(skill);
  });

  it('reports descriptions that nearly always succeed as promotion candidates', async () => {
    const runs = async (description: string, successes: number, failures: number, skillName?: string) => {
      for (let i = 0; i < successes + failures; i++) {
        await record(String(10 + i), i < successes, { description, ...(skillName ? { skill: skillName } : { skill: undefined }) });
      }
    };
    await runs('Book a room', 5, 1, 'calendar/sync'); // 83 %
    await runs('Rename files', 4, 1); // 80 %: not above the bar
    await runs('Archive mail', 4, 0); // too few runs

    const planned = await plan(undefined);

    expect(planned.details).toEqual({
      promotionCandidates: [{ description: 'Book a room', skill: 'calendar/sync', runs: 6, successRate: 5 / 6 }],
      annotated: [],
    });
    expect(planned.notes).toContain('promotion candidate: "Book a room" (skill "calendar/sync"): 5 of 6 run(s) succeeded (83%)');
  });

  it('refuses invalid options', () => {
    expect(() => new WorkflowFailureAnalysisPass({ minFailures: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new WorkflowFailureAnalysisPass({ protectedSkills: ['/abs'] })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});

describe('WorkflowFailureAnalysisPass in the engine', () => {
  function outcome(report: CycleReport): RanPassOutcome {
    const pass = report.passes[0]!;
    if (pass.status === 'skipped') throw new Error(`pass skipped: ${pass.reason}`);
    return pass;
  }

  it('annotates with the model, reports the outcome, and an undo restores the skill', async () => {
    await failingSync();
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [
          {
            type: 'text',
            text: JSON.stringify({ annotations: [{ description: SYNC, note: 'Refresh the OAuth token before fetching events.' }] }),
          },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      }),
    });
    const engine = new DreamEngine(
      { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: new RecordingLogger(), skills, workflowLog, model },
      [new WorkflowFailureAnalysisPass()],
    );

    const report = await engine.run({ trigger: 'manual' });

    expect(outcome(report)).toMatchObject({
      name: 'workflow-failure-analysis',
      status: 'ok',
      applied: 1,
      conflicts: 0,
      details: { annotated: [{ description: SYNC, skills: ['calendar/sync'], note: 'model' }], promotionCandidates: [] },
    });
    expect(model.doGenerateCalls).toHaveLength(1);
    const annotated = (await skills.get('calendar/sync'))!;
    expect(annotated.content).toContain('## Known failure (2026-11-22): Sync the calendar\n\n3 of 4 run(s) failed');
    expect(annotated.content).toContain('Refresh the OAuth token before fetching events.');
    expect(annotated).toMatchObject({ createdAt: skill.createdAt, lastUsedAt: skill.lastUsedAt });

    const again = await engine.run({ trigger: 'manual' });
    expect(outcome(again)).toMatchObject({ status: 'ok', applied: 0 });
    expect(model.doGenerateCalls).toHaveLength(1);

    const undo = await engine.undo(report.runId);
    expect(undo.restored).toEqual(['skill calendar/sync']);
    expect(await skills.get('calendar/sync')).toMatchObject({
      content: skill.content,
      summary: skill.summary,
      createdAt: skill.createdAt,
      lastUsedAt: skill.lastUsedAt,
    });
  });

  it('runs without a model and without being asked for one', async () => {
    await failingSync();
    const report = await new DreamEngine(
      { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: new RecordingLogger(), skills, workflowLog },
      [new WorkflowFailureAnalysisPass()],
    ).run({ trigger: 'manual' });
    expect(outcome(report)).toMatchObject({ status: 'ok', applied: 1, details: { annotated: [{ note: 'host' }] } });
  });
});
