import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type IConversationLog,
  InMemoryConversationLog,
  InMemoryLongTermMemory,
  ManualClock,
  type MemoryEntry,
  RecordingLogger,
  type TurnRole,
} from '@reverie/core';
import { DreamEngine } from '../../engine/dream-engine';
import type { CycleReport, RanPassOutcome } from '../../engine/dream-types';
import { cursorsDir } from '@reverie/file-store/internal';
import { EpisodeExtractionPass } from './episode-extraction-pass';
import type { EpisodeExtractionOptionsInput } from './episode-extraction-options';
import { EPISODE_DIRECTIVE } from './render-episode-prompt';
import { FileDreamStateStore } from '@reverie/file-store';

const NOW = '2026-06-01T12:00:00.000Z';
const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

let dataPath: string;
let clock: ManualClock;
let memory: InMemoryLongTermMemory;
let log: IConversationLog;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-episodes-'));
  clock = new ManualClock(NOW);
  memory = new InMemoryLongTermMemory({ clock });
  log = new InMemoryConversationLog({ clock });
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

/** The text of a prompt message (a string, or the text parts of a content list). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
}

type Script = (data: string, call: number) => unknown;

/** A mock model answering each call with `script(<the call's data>, <call number>)` (objects are sent as JSON). */
function scriptedModel(script: Script): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls += 1;
      const data = textOf(options.prompt.find((message) => message.role === 'user')!.content);
      const reply = script(data, calls);
      return {
        content: [{ type: 'text', text: typeof reply === 'string' ? reply : JSON.stringify(reply) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

/** The user prompt (the data) of every call the model received. */
function prompts(model: MockLanguageModelV3): string[] {
  return model.doGenerateCalls.map((call) => textOf(call.prompt.find((message) => message.role === 'user')!.content));
}

/** The episode ids a call's data shows (lines `[id] …`). */
function shownIds(data: string): string[] {
  return [...data.matchAll(/^\[([0-9a-f]{12})\] /gm)].map((match) => match[1]!);
}

function engine(model: MockLanguageModelV3 | undefined, options: EpisodeExtractionOptionsInput = {}, withLog = true): DreamEngine {
  return new DreamEngine(
    {
      dataPath,
      clock,
      state: new FileDreamStateStore({ dataPath, clock }),
      logger: new RecordingLogger(),
      memory,
      ...(withLog ? { conversationLog: log } : {}),
      ...(model ? { model } : {}),
    },
    [new EpisodeExtractionPass(options)],
  );
}

async function say(sessionId: string, role: TurnRole, content: string, timestamp?: string): Promise<void> {
  await log.append({ sessionId, role, content, ...(timestamp ? { timestamp } : {}) });
}

function outcome(report: CycleReport): RanPassOutcome {
  const pass = report.passes[0]!;
  if (pass.status === 'skipped') throw new Error(`pass skipped: ${pass.reason}`);
  return pass;
}

async function cursor(): Promise<unknown> {
  const file = join(cursorsDir(dataPath), 'episode-extraction.json');
  return existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : undefined;
}

/** A recorded episode, as an earlier run would have left it. */
async function recordedEpisode(content: string, point: string, at = '2026-05-20T10:00:00.000Z'): Promise<MemoryEntry> {
  return memory.save({
    content,
    category: 'episodes',
    tags: ['episode', 'travel'],
    metadata: { 'subject.point': point },
    createdAt: at,
    lastSeenAt: at,
    reinforcementCount: 1,
  });
}

describe('EpisodeExtractionPass (SPEC D6)', () => {
  it('saves a new dated episode with subject-time metadata, tagged episode, seen now, once', async () => {
    await say('s1', 'user', 'Yesterday I had my final interview at Acme with Priya Raman. It went well!', '2026-06-01T09:00:00.000Z');
    await say('s1', 'assistant', 'Congratulations on getting through the final round!', '2026-06-01T09:00:05.000Z');
    await say('s2', 'user', 'We spent the week of May 18 hiking in the Dolomites.', '2026-06-01T10:00:00.000Z');
    const model = scriptedModel(() => ({
      episodes: [
        {
          content: 'The user had a final job interview at Acme with Priya Raman',
          when: { point: '2026-05-31' },
          tags: ['career'],
          sessionIds: ['s1'],
        },
        { content: 'The user went hiking in the Dolomites', when: { start: '2026-05-18', end: '2026-05-24' }, sessionIds: ['s2'] },
      ],
    }));

    const report = await engine(model).run({ trigger: 'manual' });

    expect(outcome(report)).toMatchObject({
      name: 'episode-extraction',
      status: 'ok',
      applied: 2,
      conflicts: 0,
      itemsProcessed: 3,
      refusals: [],
    });
    expect(model.doGenerateCalls).toHaveLength(1);
    const system = model.doGenerateCalls[0]!.prompt.find((message) => message.role === 'system');
    expect(textOf(system!.content)).toBe(EPISODE_DIRECTIVE);
    const [data] = prompts(model);
    expect(data).toContain('Priya Raman');
    expect(data).toContain('untrusted data');
    expect(data).toContain('Session "s1"');

    const saved = await memory.list();
    expect(saved).toHaveLength(2);
    const interview = saved.find((entry) => entry.content.includes('Acme'))!;
    expect(interview).toMatchObject({
      category: 'episodes',
      tags: ['episode', 'career'],
      metadata: { 'subject.point': '2026-05-31' },
      createdAt: NOW,
      lastSeenAt: NOW,
      reinforcementCount: 1,
    });
    expect(saved.find((entry) => entry.content.includes('Dolomites'))).toMatchObject({
      tags: ['episode'],
      metadata: { 'subject.start': '2026-05-18', 'subject.end': '2026-05-24' },
    });
    // SPEC B10: each episode names the session turns it was extracted from and the run.
    expect(interview.lineage).toEqual({
      origin: {
        kind: 'session',
        at: NOW,
        runId: report.runId,
        pass: 'episode-extraction',
        turns: [{ sessionId: 's1', fromSeq: 1, toSeq: 2 }],
      },
    });
    expect(saved.find((entry) => entry.content.includes('Dolomites'))!.lineage?.origin?.turns).toEqual([
      { sessionId: 's2', fromSeq: 3, toSeq: 3 },
    ]);
    expect(await cursor()).toEqual({ afterSeq: 3 });
  });

  it('files new episodes under the configured category', async () => {
    await say('s1', 'user', 'I adopted a cat named Miso today.');
    const model = scriptedModel(() => ({
      episodes: [{ content: 'The user adopted a cat named Miso', when: { point: '2026-06-01' }, sessionIds: ['s1'] }],
    }));
    await engine(model, { category: 'life/events' }).run({ trigger: 'manual' });
    expect((await memory.list()).map((entry) => entry.category)).toEqual(['life/events']);
  });

  it('reinforces a revisited episode (count + 1, lastSeenAt now) instead of adding a second entry', async () => {
    const trip = await recordedEpisode('The user travelled to Lisbon with Marta', '2026-05');
    clock.advance(3_600_000);
    await say('s2', 'user', 'Remember my Lisbon trip with Marta? I still think about the pastéis de nata.');
    let seen: string[] = [];
    const model = scriptedModel((data) => {
      seen = shownIds(data);
      return {
        episodes: [
          {
            content: 'The user travelled to Lisbon with Marta',
            when: { point: '2026-05' },
            sessionIds: ['s2'],
            revisits: seen[0] ?? 'none',
          },
        ],
      };
    });

    const report = await engine(model).run({ trigger: 'manual' });

    expect(seen).toEqual([trip.id]);
    expect(outcome(report)).toMatchObject({ status: 'ok', applied: 1, refusals: [] });
    const live = await memory.list();
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({
      id: trip.id,
      content: trip.content,
      createdAt: trip.createdAt,
      lastSeenAt: clock.now().toISOString(),
      reinforcementCount: 2,
      metadata: { 'subject.point': '2026-05' },
      tags: ['episode', 'travel'],
    });
  });

  it('takes a revisit that adds facts and keeps every recorded one; refuses a rewrite that drops facts but still reinforces', async () => {
    const trip = await recordedEpisode('The user travelled to Lisbon with Marta', '2026-05');
    const race = await recordedEpisode('The user ran the Berlin marathon in 3:41', '2025-09-28');
    await say('s2', 'user', 'The Lisbon trip with Marta was from May 10 to May 17, we stayed in Alfama. Also the Berlin race, I loved it.');
    const model = scriptedModel((data) => {
      expect(shownIds(data).sort()).toEqual([trip.id, race.id].sort());
      return {
        episodes: [
          {
            content: 'The user travelled to Lisbon with Marta and stayed in Alfama',
            when: { start: '2026-05-10', end: '2026-05-17' },
            sessionIds: ['s2'],
            revisits: trip.id,
          },
          { content: 'The user ran a marathon', when: {}, sessionIds: ['s2'], revisits: race.id },
        ],
      };
    });

    const report = await engine(model).run({ trigger: 'manual' });

    const result = outcome(report);
    expect(result.refusals).toHaveLength(1);
    expect(result.refusals[0]).toMatch(new RegExp(`rewrite of ${race.id} refused: it drops "Berlin", "3:41"`));
    expect(await memory.get(trip.id)).toMatchObject({
      content: 'The user travelled to Lisbon with Marta and stayed in Alfama',
      reinforcementCount: 2,
      metadata: { 'subject.point': '2026-05', 'subject.start': '2026-05-10', 'subject.end': '2026-05-17' },
    });
    expect(await memory.get(race.id)).toMatchObject({ content: race.content, reinforcementCount: 2, lastSeenAt: NOW });
    expect(await memory.list()).toHaveLength(2);
  });

  it('reinforces a live entry instead of copying it when a "new" episode has the same normalised content and date', async () => {
    const race = await recordedEpisode('The user ran the Berlin marathon in 3:41', '2025-09-28');
    await say('s3', 'user', 'Fun fact: I ran the Berlin marathon in 3:41 back in September 2025.');
    const model = scriptedModel(() => ({
      episodes: [{ content: 'the user ran the Berlin marathon in 3:41.', when: { point: '2025-09-28' }, sessionIds: ['s3'] }],
    }));

    const report = await engine(model).run({ trigger: 'manual' });

    expect(outcome(report).notes.some((note) => note.includes(`reinforced instead of copied`))).toBe(true);
    const live = await memory.list();
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ id: race.id, content: race.content, reinforcementCount: 2, lastSeenAt: NOW });
  });

  it('lets a later call of the same run revisit an episode an earlier call created: one entry, one observation per session', async () => {
    const filler = 'We talked it all through over dinner and it felt like a real milestone for the family. '.repeat(8);
    await say('s1', 'user', `My sister Ana got married in Porto last Saturday. ${filler}`, '2026-05-31T09:00:00.000Z');
    await say('s2', 'user', `Still thinking about Ana's wedding in Porto. ${filler}`, '2026-06-01T09:00:00.000Z');
    const model = scriptedModel((data, call) => {
      if (call === 1)
        return { episodes: [{ content: "The user's sister Ana got married in Porto", when: { point: '2026-05-30' }, sessionIds: ['s1'] }] };
      const [id] = shownIds(data);
      return {
        episodes: [{ content: "The user's sister Ana got married in Porto", when: {}, sessionIds: ['s2'], revisits: id ?? 'missing' }],
      };
    });

    const report = await engine(model, { tokenBudget: 1000 }).run({ trigger: 'manual' });

    expect(model.doGenerateCalls).toHaveLength(2);
    expect(outcome(report)).toMatchObject({ status: 'ok', applied: 1, refusals: [] });
    const live = await memory.list();
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ reinforcementCount: 2, metadata: { 'subject.point': '2026-05-30' } });
  });

  it('never sends a [skip] turn, nor system and tool turns', async () => {
    await say('s1', 'user', 'I repainted the kitchen green on Sunday.');
    await say('s1', 'assistant', 'audit: token XYZZY-4411 rotated [skip]');
    await say('s1', 'tool', 'TOOL-OUTPUT-7788');
    await say('s1', 'system', 'SYSTEM-PROMPT-9900');
    const model = scriptedModel(() => ({ episodes: [] }));

    const report = await engine(model).run({ trigger: 'manual' });

    const [data] = prompts(model);
    expect(data).toContain('repainted the kitchen');
    expect(data).not.toContain('XYZZY');
    expect(data).not.toContain('TOOL-OUTPUT');
    expect(data).not.toContain('SYSTEM-PROMPT');
    expect(outcome(report)).toMatchObject({ itemsProcessed: 4 });
    expect(await cursor()).toEqual({ afterSeq: 4 });
  });

  it('asks nothing when every new turn is [skip], and still moves past them', async () => {
    await say('s1', 'user', '[skip] internal audit record');
    const model = scriptedModel(() => ({ episodes: [] }));
    const report = await engine(model).run({ trigger: 'manual' });
    expect(outcome(report)).toMatchObject({ status: 'ok', applied: 0 });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(await cursor()).toEqual({ afterSeq: 1 });
  });

  it('passes retention hints to the model and strips them from what is saved', async () => {
    await say('s1', 'user', 'I moved to Porto on May 3rd [permanent]');
    await say('s1', 'user', '[correction] sorry, it was May 4th');
    const model = scriptedModel(() => ({
      episodes: [
        {
          content: '[durable] The user moved to Porto on 2026-05-04 [permanent]',
          when: { point: '2026-05-04' },
          tags: ['[durable]', 'relocation', 'ephemeral', 'home [permanent]'],
          sessionIds: ['s1'],
        },
      ],
    }));

    await engine(model).run({ trigger: 'manual' });

    const [data] = prompts(model);
    expect(data).toContain('[permanent]');
    expect(data).toContain('[correction]');
    const [saved] = await memory.list();
    expect(saved).toMatchObject({ content: 'The user moved to Porto on 2026-05-04', tags: ['episode', 'relocation', 'home'] });
    expect(JSON.stringify(saved)).not.toMatch(/\[(skip|correction|permanent|durable|ephemeral)\]/i);
  });

  it('refuses an episode that names a session not sent in its call, and a revisit of an id that was not shown', async () => {
    const note = await memory.save({ content: 'The user prefers aisle seats', category: 'user-preferences/travel' });
    await say('s1', 'user', 'I flew to Oslo for the conference on Tuesday.');
    const model = scriptedModel(() => ({
      episodes: [
        { content: 'The user flew to Oslo for a conference', when: { point: '2026-05-26' }, sessionIds: ['s-ghost'] },
        { content: 'The user flew to Oslo for a conference', when: { point: '2026-05-26' }, sessionIds: ['s1', 's-ghost'] },
        { content: 'The user flew to Oslo for a conference', when: { point: '2026-05-26' }, sessionIds: [] },
        { content: 'The user flew to Oslo', when: { point: '2026-05-26' }, sessionIds: ['s1'], revisits: 'aaaaaaaaaaaa' },
        { content: 'The user prefers aisle seats', when: { point: '2026-05-26' }, sessionIds: ['s1'], revisits: note.id },
      ],
    }));

    const report = await engine(model).run({ trigger: 'manual' });

    const result = outcome(report);
    expect(result).toMatchObject({ status: 'warning', applied: 0 });
    expect(result.refusals).toHaveLength(5);
    expect(result.refusals[0]).toContain('"s-ghost"');
    expect(result.refusals[3]).toContain('"aaaaaaaaaaaa", which is not an episode shown in this call');
    expect(await memory.list()).toEqual([note]);
  });

  it('refuses invalid, reversed, missing and future dates, keeping the valid episode', async () => {
    await say('s1', 'user', 'Lots happened: the launch, the offsite, the hackathon, the audit, the retro.');
    const model = scriptedModel(() => ({
      episodes: [
        { content: 'The team shipped the launch', when: { point: '2026-13-01' }, sessionIds: ['s1'] },
        { content: 'The team held an offsite', when: { start: '2026-05-20', end: '2026-05-10' }, sessionIds: ['s1'] },
        { content: 'The team ran a hackathon', when: {}, sessionIds: ['s1'] },
        { content: 'The team will have an audit', when: { point: '2026-09-01' }, sessionIds: ['s1'] },
        { content: 'The team held a sprint retro', when: { point: 'last week' }, sessionIds: ['s1'] },
        { content: 'The team held a planning day', when: { point: '2026-05-28' }, sessionIds: ['s1'] },
      ],
    }));

    const report = await engine(model).run({ trigger: 'manual' });

    const result = outcome(report);
    expect(result.refusals).toHaveLength(5);
    expect(result.refusals.join('\n')).toMatch(/"2026-13-01" is not an ISO date/);
    expect(result.refusals.join('\n')).toMatch(/is after when.end/);
    expect(result.refusals.join('\n')).toMatch(/needs a date/);
    expect(result.refusals.join('\n')).toMatch(/in the future/);
    expect((await memory.list()).map((entry) => entry.content)).toEqual(['The team held a planning day']);
  });

  it('makes no model call on a second run without new turns, and sends only new turns after that', async () => {
    await say('s1', 'user', 'I finished the Camino de Santiago on Friday!');
    const model = scriptedModel(() => ({ episodes: [] }));
    const pass = engine(model);
    await pass.run({ trigger: 'manual' });
    expect(model.doGenerateCalls).toHaveLength(1);

    const again = await pass.run({ trigger: 'manual' });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(outcome(again)).toMatchObject({ status: 'ok', applied: 0, itemsProcessed: 0, notes: ['no new turns after seq 1'] });

    await say('s2', 'user', 'Booked a pottery class for my mum.');
    await pass.run({ trigger: 'manual' });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(prompts(model)[1]).toContain('pottery');
    expect(prompts(model)[1]).not.toContain('Camino');
  });

  it('works through a long backlog in batches of maxTurnsPerRun, oldest first', async () => {
    for (const n of [1, 2, 3]) await say(`s${n}`, 'user', `turn-number-${n}`);
    const model = scriptedModel(() => ({ episodes: [] }));
    const pass = engine(model, { maxTurnsPerRun: 2 });
    const first = await pass.run({ trigger: 'manual' });
    expect(outcome(first).notes.join('\n')).toContain('maxTurnsPerRun (2) reached');
    await pass.run({ trigger: 'manual' });
    const [one, two] = prompts(model);
    expect(one).toContain('turn-number-1');
    expect(one).toContain('turn-number-2');
    expect(one).not.toContain('turn-number-3');
    expect(two).toContain('turn-number-3');
    expect(two).not.toContain('turn-number-1');
    expect(await cursor()).toEqual({ afterSeq: 3 });
  });

  it('does not move the cursor when the reply is invalid twice (the pass fails); the next run reads the same turns', async () => {
    await say('s1', 'user', 'We closed the Series A with Northwind Ventures on Monday.', '2026-06-01T08:00:00.000Z');
    const broken = scriptedModel(() => 'I would rather write a poem about it.');

    const report = await engine(broken).run({ trigger: 'manual' });

    expect(outcome(report)).toMatchObject({ status: 'failed' });
    expect(broken.doGenerateCalls).toHaveLength(2);
    expect(await cursor()).toBeUndefined();
    expect(await memory.list()).toEqual([]);
    expect(await log.read()).toHaveLength(1);

    const good = scriptedModel(() => ({
      episodes: [{ content: 'The company closed its Series A with Northwind Ventures', when: { point: '2026-06-01' }, sessionIds: ['s1'] }],
    }));
    const retry = await engine(good).run({ trigger: 'manual' });
    expect(prompts(good)[0]).toContain('Northwind Ventures');
    expect(outcome(retry)).toMatchObject({ status: 'ok', applied: 1 });
    expect(await cursor()).toEqual({ afterSeq: 1 });
  });

  it('counts a session once when a crash before the cursor moved makes the next run read the same turns (SPEC B2, D6)', async () => {
    await say('s1', 'user', 'We closed the Series A with Northwind Ventures on Monday.', '2026-06-01T08:00:00.000Z');
    const model = scriptedModel((data) => {
      const shown = shownIds(data);
      const episode = {
        content: 'The company closed its Series A with Northwind Ventures',
        when: { point: '2026-06-01' },
        sessionIds: ['s1'],
      };
      return { episodes: [shown.length > 0 ? { ...episode, revisits: shown[0] } : episode] };
    });
    await engine(model).run({ trigger: 'manual' });
    expect((await memory.list()).map((entry) => entry.reinforcementCount)).toEqual([1]);

    // The process died after the save and before the cursor moved: the next run reads s1 again.
    await rm(join(cursorsDir(dataPath), 'episode-extraction.json'));
    clock.advance(3_600_000);
    const again = await engine(model).run({ trigger: 'manual' });
    expect(outcome(again)).toMatchObject({ status: 'ok' });
    expect((await memory.list()).map((entry) => entry.reinforcementCount)).toEqual([1]);

    // A later turn of the same session is a new observation.
    await say('s1', 'user', 'Northwind Ventures joined the board meeting today.', '2026-06-01T13:00:00.000Z');
    await engine(model).run({ trigger: 'manual' });
    expect((await memory.list()).map((entry) => entry.reinforcementCount)).toEqual([2]);
  });

  it('does not move the cursor or write anything on a dry run', async () => {
    await say('s1', 'user', 'I got my driving licence this morning.');
    const model = scriptedModel(() => ({
      episodes: [{ content: 'The user got a driving licence', when: { point: '2026-06-01' }, sessionIds: ['s1'] }],
    }));
    const report = await engine(model).run({ trigger: 'manual', dryRun: true });
    expect(outcome(report).planned).toHaveLength(1);
    expect(await memory.list()).toEqual([]);
    expect(await cursor()).toBeUndefined();
  });

  it('is skipped without a conversation log or without a model', async () => {
    const noLog = await engine(
      scriptedModel(() => ({ episodes: [] })),
      {},
      false,
    ).run({ trigger: 'manual' });
    expect(noLog.passes[0]).toMatchObject({ status: 'skipped' });
    const noModel = await engine(undefined).run({ trigger: 'manual' });
    expect(noModel.passes[0]).toMatchObject({ status: 'skipped', reason: 'needs a language model' });
  });

  it('rejects invalid options', () => {
    expect(() => new EpisodeExtractionPass({ category: '../etc' })).toThrow(/Invalid episode-extraction options/);
    expect(() => new EpisodeExtractionPass({ maxTurnsPerRun: 0 })).toThrow(/Invalid episode-extraction options/);
  });
});
