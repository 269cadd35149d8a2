import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { createReverie, type MemoryEntry, type PassOutcome, type RanPassOutcome, type Reverie, type Skill } from 'reverie';
import { BUILT_IN_PASSES } from '@reverie/dream/options';
import { FIXTURE_NOW, type RealisticAgent, seedRealisticAgent } from './__fixtures__/realistic-agent';

/** The directive file of each model pass; the test writes its own, marked, so the model can tell the passes apart (D13). */
const DIRECTIVE_FILES: Record<string, string> = {
  'memory-consolidation': 'dream.md',
  'episode-extraction': 'episode-dream.md',
  'skill-gap': 'skill-gap.md',
  'skill-consolidation': 'skill-dream.md',
  'skill-optimization': 'skill-optimize.md',
  'workflow-failure-analysis': 'workflow-dream.md',
  'preference-inference': 'pref-dream.md',
};
const RETENTION_TAG = /\[(skip|correction|permanent|durable|ephemeral)\]/i;
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.parse(FIXTURE_NOW) - days * DAY).toISOString();

interface Call {
  pass: string;
  system: string;
  user: string;
}

/** A scripted model that answers each pass the way a sensible (and sometimes careless) model would. */
function cycleModel(replies: Record<string, (user: string) => object>, calls: Call[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const text = (role: string) =>
        options.prompt
          .filter((message) => message.role === role)
          .map((message) =>
            typeof message.content === 'string'
              ? message.content
              : message.content.map((part) => ('text' in part ? part.text : '')).join(''),
          )
          .join('\n');
      const system = text('system');
      const user = text('user');
      const pass = /^PASS (\S+)/m.exec(system)?.[1] ?? 'unknown';
      calls.push({ pass, system, user });
      const reply = replies[pass];
      if (!reply) throw new Error(`no scripted reply for ${pass}`);
      return {
        content: [{ type: 'text', text: `<think>checking the data</think>\n${JSON.stringify(await reply(user))}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 20, text: 20, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

let dataPath: string;
let reverie: Reverie;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-full-cycle-'));
});
afterEach(async () => {
  await reverie.close();
  rmSync(dataPath, { recursive: true, force: true });
});

describe('a full dream cycle over a realistic agent', () => {
  it('runs every pass in order and leaves one coherent, reversible report', async () => {
    const calls: Call[] = [];
    let agent!: RealisticAgent;
    let lateTurnSeq = 0;
    const replies: Record<string, (user: string) => object> = {
      'memory-consolidation': (user) =>
        user.includes(agent.memoryIds.atlasDayA) && user.includes(agent.memoryIds.atlasDayB)
          ? {
              toDelete: [agent.memoryIds.stale, 'no-such-id'],
              toSave: [
                {
                  content: 'Atlas status reports are due every Friday: the weekly report has to be sent on Fridays. [permanent]',
                  category: 'project-context/atlas',
                  sourceIds: [agent.memoryIds.atlasDayA, agent.memoryIds.atlasDayB],
                },
              ],
            }
          : { toDelete: [], toSave: [] },
      'episode-extraction': () => ({
        episodes: [
          {
            content: 'The user had a Nordwind supplier invoice converted into a spreadsheet. [durable]',
            when: { point: daysAgo(12).slice(0, 10) },
            sessionIds: ['invoice-1'],
            tags: ['finance'],
          },
        ],
      }),
      'skill-gap': () => ({
        skills: [
          {
            name: 'finance/invoice-to-spreadsheet',
            summary: 'Turn a supplier invoice PDF into a spreadsheet.',
            content:
              '# Invoice to spreadsheet [durable]\n\n1. One row per line item.\n2. Check the totals against the PDF.\n3. Compute VAT when it is missing.\n4. Never copy card numbers.\n',
            sessionIds: agent.invoiceSessions,
            seeAlso: ['work/budget-sheet', 'ghost/skill'],
          },
          { name: 'mcp/invoices', summary: 'Invoices binding.', content: 'Call invoices.parse.', sessionIds: agent.invoiceSessions },
          { name: 'finance/made-up', summary: 'Something.', content: 'Steps.', sessionIds: ['invoice-1', 'ghost-session'] },
        ],
      }),
      'skill-consolidation': () => ({
        toDelete: [],
        toSave: [
          {
            name: 'reports/weekly-status',
            summary: 'Write the weekly status report or a status update of a project.',
            content:
              '# Weekly status report\n\n1. Collect what shipped, what is open and the risks.\n2. Write Done / Next / Risks, under 200 words.\n3. Use the units of the source notes.\n\nFor a quick update, the same three headings in a few lines.\n\nCheck the result against the request before answering, and say what you could not do.\n',
            sourceNames: ['reports/weekly-status', 'reports/status-update'],
            seeAlso: ['reports/publish-wiki'],
          },
          { name: 'mcp/email', summary: 'Email and chat.', content: 'Merged bindings.', sourceNames: ['mcp/email', 'mcp/chat'] },
        ],
      }),
      'skill-optimization': () => ({
        toSave: [
          {
            name: 'reports/weekly-status',
            summary: 'Write the weekly status report or a status update of a project.',
            content:
              '# Weekly status report\n\n1. Collect what shipped, what is open and the risks.\n2. Write Done / Next / Risks, under 200 words.\n3. Temperatures in Celsius, always; the user has corrected Fahrenheit twice.\n4. No closing disclaimer.\n\nFor a quick update, the same three headings in a few lines.\n\nCheck the result against the request before answering, and say what you could not do.\n',
          },
          { name: 'reports/publish-wiki', summary: 'Publish.', content: 'Upload it.' },
        ],
      }),
      'workflow-failure-analysis': () => ({
        annotations: [
          {
            description: 'Publish the weekly report to the Atlas wiki',
            note: 'The bot token needs the pages:write scope; ask an admin before publishing. [permanent]',
          },
          { description: 'Something never sent', note: 'x' },
        ],
      }),
      'preference-inference': async () => {
        lateTurnSeq = (
          await reverie.conversationLog!.append({ sessionId: 'late', role: 'user', content: 'A turn logged while the cycle runs.' })
        ).seq;
        return {
          preferences: [
            {
              content: 'The user wants temperatures in Celsius, never Fahrenheit. [correction]',
              strength: 'strong',
              evidence: [agent.seqs.fahrenheit1, agent.seqs.fahrenheit2],
              tags: ['units'],
            },
            {
              content: 'Never paste the company card number into documents.',
              strength: 'strong',
              evidence: [agent.seqs.bankCard],
              requiresUserPermission: false,
            },
            { content: 'The user dislikes closing disclaimers.', strength: 'mild', evidence: [agent.seqs.disclaimers] },
            { content: 'The user loves jazz.', strength: 'casual', evidence: [9999] },
          ],
        };
      },
    };
    const clock = new ManualClock(FIXTURE_NOW);
    reverie = createReverie({ dataPath, clock, model: cycleModel(replies, calls) })
      .withMemory()
      .withSkills({ protected: ['mcp/*'] })
      .withConversationLog()
      .withFeedback()
      .withWorkflowLog()
      .withDreaming()
      .build();
    agent = await seedRealisticAgent(reverie);
    for (const [pass, file] of Object.entries(DIRECTIVE_FILES))
      writeFileSync(join(dataPath, file), `PASS ${pass}\nAnswer with JSON only.\n`);
    expect(agent.skillCount).toBeGreaterThanOrEqual(30);
    const before = { memories: await reverie.memory!.list(), skills: await reverie.skills!.list() };
    clock.advance(60_000);

    const report = await reverie.dreams.run({ trigger: 'test' });
    const outcome = (name: string) => report.passes.find((pass) => pass.name === name) as RanPassOutcome;

    // Every pass ran, in the SPEC's order, and every model pass was asked through its directive file.
    const order = BUILT_IN_PASSES.map((pass) => pass.name);
    expect(report.passes.map((pass) => pass.name)).toEqual(order.filter((name) => report.passes.some((pass) => pass.name === name)));

    if (process.env.DEBUG_FC) console.log(JSON.stringify(report.passes.find((p) => p.name === 'skill-consolidation')));
    expect(new Set(calls.map((call) => call.pass))).toEqual(new Set(Object.keys(DIRECTIVE_FILES)));
    // [skip] turns never reach a model.
    expect(calls.filter((call) => call.user.includes('hunter2'))).toEqual([]);

    const memories = await reverie.memory!.list();
    const skills = await reverie.skills!.list();
    const skill = (name: string) => skills.find((s) => s.name === name);
    const originally = (name: string) => before.skills.find((s) => s.name === name)!;

    // Memory: duplicates merged by the host and the model, an episode, inferred preferences.
    expect(memories.filter((entry) => /metric units/i.test(entry.content))).toHaveLength(1);
    const atlas = memories.filter((entry) => entry.category === 'project-context/atlas');
    expect(atlas.map((entry) => entry.content)).toEqual([
      'Atlas status reports are due every Friday: the weekly report has to be sent on Fridays.',
    ]);
    expect(atlas[0]!.createdAt).toBe(daysAgo(30));
    // The model pruned the stale entry (within the deletion cap) and named an id it was never shown.
    expect(memories.some((entry) => entry.id === agent.memoryIds.stale)).toBe(false);
    expect(outcome('memory-consolidation').refusals.join('\n')).toMatch(/no-such-id.*not shown/);
    expect(memories.some((entry) => entry.category === 'episodes' && /Nordwind/.test(entry.content))).toBe(true);
    const inferred = memories.filter((entry) => entry.category === 'user-preferences/inferred');
    expect(inferred.map((entry) => entry.content).sort()).toEqual([
      'Never paste the company card number into documents.',
      'The user wants temperatures in Celsius, never Fahrenheit.',
    ]);
    for (const entry of inferred) {
      expect(entry.tags).toContain('inferred');
      expect(entry.metadata.source).toBe('inferred');
    }
    const card = inferred.find((entry) => /card number/.test(entry.content))!;
    expect(card.metadata.requires_user_permission).toBe('true');
    const contentOf = (entry: MemoryEntry | Skill) => ('name' in entry ? `${entry.name} ${entry.summary} ${entry.content}` : entry.content);
    for (const record of [...memories, ...skills]) expect(contentOf(record)).not.toMatch(RETENTION_TAG);

    // Skills: a new skill from the recurring request, a merge keeping the earliest createdAt, a
    // rewrite with the correction's lesson, an annotation of the failing workflow, protected
    // bindings untouched, and every seeAlso pointing at a skill that exists.
    expect(skill('finance/invoice-to-spreadsheet')?.seeAlso).toEqual(['work/budget-sheet']);
    expect(skill('mcp/invoices')).toBeUndefined();
    expect(skill('finance/made-up')).toBeUndefined();
    expect(skill('reports/status-update')).toBeUndefined();
    expect(skill('reports/weekly-status')).toMatchObject({ createdAt: originally('reports/weekly-status').createdAt });
    expect(skill('reports/weekly-status')!.content).toContain('Celsius');
    expect(skill('reports/publish-wiki')!.content).toContain(originally('reports/publish-wiki').content.trim());
    expect(skill('reports/publish-wiki')!.content).toMatch(/pages:write/);
    for (const name of ['mcp/email', 'mcp/chat', 'mcp/calendar', 'mcp/drive']) expect(skill(name)).toEqual(originally(name));
    const names = new Set(skills.map((s) => s.name));
    for (const s of skills) for (const related of s.seeAlso) expect(names.has(related), `${s.name} → ${related}`).toBe(true);

    // The report says what the guards refused, and what the workflows show.
    expect(outcome('skill-gap').refusals.join('\n')).toMatch(/ghost-session/);
    expect(outcome('skill-gap').refusals.join('\n')).toMatch(/mcp\/invoices/);
    expect(outcome('skill-consolidation').refusals.join('\n')).toMatch(/protected/);
    expect(outcome('skill-optimization').refusals.join('\n')).toMatch(/shorter/);
    expect(outcome('preference-inference').refusals.join('\n')).toMatch(/mild preference needs 2/);
    expect(outcome('preference-inference').refusals.join('\n')).toMatch(/#9999 ignored/);
    expect(outcome('workflow-failure-analysis').details?.promotionCandidates).toEqual([
      expect.objectContaining({ description: 'Move a meeting on the calendar', runs: 6, successRate: 1 }),
    ]);

    // The log is cleared up to what every reader read; the turn logged during the cycle survives.
    expect((await reverie.conversationLog!.read()).map((turn) => turn.seq)).toEqual([lateTurnSeq]);

    // One run folder with the whole story.
    const runFolder = report.runFolder!;
    expect(existsSync(join(runFolder, 'summary.md'))).toBe(true);
    const saved = JSON.parse(readFileSync(join(runFolder, 'report.json'), 'utf8')) as { passes: PassOutcome[] };
    expect(saved.passes.map((pass) => pass.name)).toEqual(report.passes.map((pass) => pass.name));

    // Undo gives back the memories and skills as they were (the cleared log excepted).
    await reverie.dreams.undo(report.runId);
    const comparable = (entries: MemoryEntry[]) =>
      entries.map(({ updatedAt: _u, ...rest }) => rest).sort((a, b) => a.id.localeCompare(b.id));
    expect(comparable(await reverie.memory!.list())).toEqual(comparable(before.memories));
    const comparableSkills = (list: Skill[]) => list.map(({ updatedAt: _u, ...rest }) => rest);
    expect(comparableSkills(await reverie.skills!.list())).toEqual(comparableSkills(before.skills));
  });
});
