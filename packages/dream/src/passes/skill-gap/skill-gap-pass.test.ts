import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnRole } from '@reverie/core';
import { cursorsDir } from '@reverie/file-store/internal';
import { ScriptedGateway } from '../__fixtures__/scripted-gateway';
import { SkillPassHarness } from '../skill-common/__fixtures__/skill-pass-harness';
import { SKILL_GAP_DIRECTIVE, SKILL_GAP_DIRECTIVE_FILE } from './render-skill-gap-prompt';
import { SkillGapPass } from './skill-gap-pass';

const NOW = '2026-06-01T12:00:00.000Z';
const TAG = /\[(skip|correction|permanent|durable|ephemeral)\]/i;

let h: SkillPassHarness;
beforeEach(async () => {
  h = await SkillPassHarness.create(NOW);
});
afterEach(async () => {
  await h.dispose();
});

async function say(sessionId: string, role: TurnRole, content: string): Promise<void> {
  await h.log.append({ sessionId, role, content });
}

/** Two sessions asking for an invoice, one about the weather. */
async function invoiceSessions(): Promise<void> {
  await say('s1', 'user', 'Please draft the invoice for Acme, 12 hours of consulting');
  await say('s1', 'assistant', 'Here is a draft invoice with line items and VAT.');
  await say('s2', 'user', 'I need an invoice for Globex for the May retainer');
  await say('s2', 'assistant', 'Drafted: number INV-0042, due in 30 days.');
  await say('s3', 'user', 'What will the weather be in Oslo tomorrow?');
}

const invoiceSkill = {
  name: 'finance/invoice-drafting',
  summary: 'Use when the user asks for an invoice for a client.',
  content: '# Drafting an invoice\n1. Ask for the client, period and hours.\n2. Number it and set the due date.\n3. Add VAT.',
};

async function cursor(): Promise<unknown> {
  const file = join(cursorsDir(h.dataPath), 'skill-gap.json');
  return existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : undefined;
}

describe('SkillGapPass (SPEC D8)', () => {
  it('creates a skill for a request that recurs in two sessions, with the recurring terms and catalogue in the prompt', async () => {
    await h.skills.save({ name: 'travel/booking', summary: 'Book trips', content: 'Steps to book a trip.' });
    await invoiceSessions();
    const gateway = new ScriptedGateway(() => ({
      skills: [{ ...invoiceSkill, sessionIds: ['s1', 's2'], seeAlso: ['travel/booking', 'ghost/skill'] }],
    }));

    const plan = await h.plan(new SkillGapPass(), gateway);

    expect(gateway.requests).toHaveLength(1);
    const request = gateway.requests[0]!;
    expect(request).toMatchObject({ pass: 'skill-gap', directiveFile: SKILL_GAP_DIRECTIVE_FILE, builtInDirective: SKILL_GAP_DIRECTIVE });
    expect(request.data).toContain('"invoice" sessions=2 total=2 ids=["s1","s2"]');
    expect(request.data).toContain('"travel/booking" : "Book trips"');
    expect(request.data).toContain('Session "s1"');
    expect(request.data).toContain('INV-0042');
    expect(request.data).not.toContain('Oslo');
    expect(plan.notes).toContain('1 session(s) without a recurring term not sent');
    expect(plan.notes).toContain('finance/invoice-drafting: seeAlso "ghost/skill" dropped: no such skill');
    expect(plan.refusals).toEqual([]);
    expect(plan.itemsProcessed).toBe(5);
    expect(plan.details).toEqual({ recurringTerms: [{ term: 'invoice', count: 2 }] });
    expect(plan.operations).toEqual([
      {
        op: 'skill.save',
        skill: { ...invoiceSkill, seeAlso: ['travel/booking'], createdAt: NOW, updatedAt: NOW, lastUsedAt: null },
        expectUpdatedAt: null,
        reason: 'skill-gap: new skill for a request seen in 2 sessions ("s1", "s2")',
      },
    ]);

    await h.apply(plan);
    expect(await h.skills.get('finance/invoice-drafting')).toMatchObject({
      ...invoiceSkill,
      seeAlso: ['travel/booking'],
      createdAt: NOW,
      lastUsedAt: null,
    });
    expect(JSON.parse(h.artifacts.get('skill-gap.selection.json')!)).toMatchObject({ afterSeq: 0, throughSeq: 5 });
  });

  it('does not count made-up session ids, nor the same session twice', async () => {
    await invoiceSessions();
    const gateway = new ScriptedGateway(() => ({
      skills: [
        { ...invoiceSkill, name: 'finance/a', sessionIds: ['s1', 'ghost'] },
        { ...invoiceSkill, name: 'finance/b', sessionIds: ['s1', 's1', ' s1 '] },
        { ...invoiceSkill, name: 'finance/c', sessionIds: [] },
        { ...invoiceSkill, name: 'finance/d', sessionIds: ['s1', 's2', 'ghost'] },
      ],
    }));

    const plan = await h.run(new SkillGapPass(), gateway);

    expect(plan.refusals).toHaveLength(3);
    expect(plan.refusals[0]).toBe(
      'call 1, skill 1 ("finance/a") refused: it cites 1 session(s) of this call, fewer than the 2 a recurring request needs; "ghost" were not sent in this call and do not count',
    );
    expect(plan.refusals[1]).toContain('it cites 1 session(s) of this call');
    expect(plan.refusals[2]).toContain('it cites 0 session(s) of this call');
    expect(plan.notes).toContain('call 1, skill 4 ("finance/d"): session id(s) "ghost" were not sent in this call; ignored');
    expect((await h.skills.list()).map((skill) => skill.name)).toEqual(['finance/d']);
  });

  it('does not count sessions that were sent in another call of the run', async () => {
    const filler = (word: string) => `${word} notes: ${'lorem ipsum dolor sit amet '.repeat(130)}`;
    for (const id of ['a1', 'a2']) {
      await say(id, 'user', 'Draft the invoice for this client');
      await say(id, 'assistant', filler('invoice'));
    }
    for (const id of ['b1', 'b2']) {
      await say(id, 'user', 'Deploy the staging server');
      await say(id, 'assistant', filler('deploy'));
    }
    const gateway = new ScriptedGateway((data) =>
      data.includes('Session "b1"')
        ? {
            skills: [
              { ...invoiceSkill, name: 'devops/mixed', sessionIds: ['b1', 'a1'] },
              { ...invoiceSkill, name: 'devops/staging-deploy', sessionIds: ['b1', 'b2'] },
            ],
          }
        : { skills: [] },
    );

    const plan = await h.plan(new SkillGapPass({ tokenBudget: 4000 }), gateway);

    expect(gateway.requests).toHaveLength(2);
    const deploy = gateway.requests.map((request) => request.data).find((data) => data.includes('Session "b1"'))!;
    const invoice = gateway.requests.map((request) => request.data).find((data) => data.includes('Session "a1"'))!;
    expect(deploy).toContain('Session "b2"');
    expect(deploy).not.toContain('Session "a1"');
    expect(deploy).toContain('"deploy" sessions=2');
    expect(invoice).toContain('"invoice" sessions=2');
    expect(plan.refusals).toEqual([expect.stringContaining('"a1" were not sent in this call and do not count')]);
    expect(plan.operations.map((operation) => operation.op === 'skill.save' && operation.skill.name)).toEqual(['devops/staging-deploy']);
  });

  it('refuses existing, protected, invalid and repeated names (the first proposal wins)', async () => {
    await h.skills.save({ name: 'finance/invoices', summary: 'Invoices', content: 'Old skill.' });
    await invoiceSessions();
    const sessionIds = ['s1', 's2'];
    const gateway = new ScriptedGateway(() => ({
      skills: [
        { ...invoiceSkill, name: 'finance/invoices', sessionIds },
        { ...invoiceSkill, name: 'mcp/invoices', sessionIds },
        { ...invoiceSkill, name: '../etc/passwd', sessionIds },
        { ...invoiceSkill, name: 'finance/new-invoice', sessionIds },
        { ...invoiceSkill, name: 'finance/new-invoice', summary: 'second version', sessionIds },
        { ...invoiceSkill, name: 'finance/empty', summary: '[durable]', sessionIds },
      ],
    }));

    const plan = await h.run(new SkillGapPass({ protectedSkills: ['mcp/*'] }), gateway);

    expect(plan.refusals).toEqual([
      'call 1, skill 1 ("finance/invoices") refused: a skill named "finance/invoices" exists already',
      'call 1, skill 2 ("mcp/invoices") refused: "mcp/invoices" matches a protected skill pattern',
      expect.stringMatching(/^call 1, skill 3 \("\.\.\/etc\/passwd"\) refused: "\.\.\/etc\/passwd" is not a valid skill name/),
      'call 1, skill 5 ("finance/new-invoice") refused: "finance/new-invoice" was already proposed earlier in this run; the first proposal wins',
      'call 1, skill 6 ("finance/empty") refused: its summary is empty',
    ]);
    expect(await h.skills.get('finance/invoices')).toMatchObject({ content: 'Old skill.' });
    expect(await h.skills.get('finance/new-invoice')).toMatchObject({ summary: invoiceSkill.summary });
    expect((await h.skills.list()).map((skill) => skill.name)).toEqual(['finance/invoices', 'finance/new-invoice']);
  });

  it('sends retention hints as hints, never a [skip] turn, and strips every hint from what it saves', async () => {
    await say('s1', 'user', 'Draft the invoice for Acme [correction]');
    await say('s1', 'assistant', 'audit token QZX-991 rotated [skip]');
    await say('s1', 'tool', 'TOOL-OUTPUT-7788');
    await say('s2', 'user', 'Invoice for Globex please [durable]');
    const gateway = new ScriptedGateway(() => ({
      skills: [
        {
          name: 'finance/invoice-drafting [durable]',
          summary: '[permanent] Use when the user asks for an invoice.',
          content: '# Invoice\n1. Ask for the client [correction]\n2. [skip] Add VAT.',
          sessionIds: ['s1', 's2'],
          seeAlso: [],
        },
      ],
    }));

    await h.run(new SkillGapPass(), gateway);

    const data = gateway.requests[0]!.data;
    expect(data).toContain('[correction]');
    expect(data).toContain('[durable]');
    expect(data).not.toContain('QZX-991');
    expect(data).not.toContain('TOOL-OUTPUT');
    const saved = await h.skills.list();
    expect(saved).toMatchObject([
      {
        name: 'finance/invoice-drafting',
        summary: 'Use when the user asks for an invoice.',
        content: '# Invoice\n1. Ask for the client\n2. Add VAT.',
      },
    ]);
    expect(JSON.stringify(saved)).not.toMatch(TAG);
  });

  it('asks nothing when no request recurs across sessions, and still moves past the turns once applied', async () => {
    await say('s1', 'user', 'Translate this letter into French');
    await say('s2', 'user', 'Book a table for two tonight');
    await say('s3', 'user', '[skip] invoice');
    await say('s4', 'user', 'invoice [skip]');
    const gateway = new ScriptedGateway();
    const pass = new SkillGapPass();

    const plan = await h.plan(pass, gateway);

    expect(gateway.requests).toHaveLength(0);
    expect(plan.operations).toEqual([]);
    expect(plan.notes).toContain('no request recurs across sessions');
    expect(await cursor()).toBeUndefined();
    await h.apply(plan);
    expect(await cursor()).toEqual({ afterSeq: 4 });
    expect(await pass.conversationLogReadThrough(h.context(gateway).services)).toBe(4);
  });

  it('moves its cursor only after the plan is applied, and reads only newer turns next time', async () => {
    await invoiceSessions();
    const gateway = new ScriptedGateway(() => ({ skills: [] }));
    const pass = new SkillGapPass();
    expect(await pass.conversationLogReadThrough(h.context(gateway).services)).toBe(0);

    const plan = await h.plan(pass, gateway);
    expect(await cursor()).toBeUndefined();
    const again = await h.plan(pass, gateway);
    expect(again.itemsProcessed).toBe(5);

    await h.apply(plan);
    expect(await cursor()).toEqual({ afterSeq: 5 });
    expect(await pass.conversationLogReadThrough(h.context(gateway).services)).toBe(5);
    const idle = await h.plan(pass, gateway);
    expect(idle).toMatchObject({ itemsProcessed: 0, notes: ['no new turns after seq 5'] });

    await say('s9', 'user', 'invoice for Initech');
    await say('s10', 'user', 'an invoice for Hooli');
    await h.plan(pass, gateway);
    expect(gateway.requests.at(-1)!.data).toContain('Initech');
    expect(gateway.requests.at(-1)!.data).not.toContain('Acme');
  });

  it('keeps seeAlso to a skill created in the same run, and honours minSessions', async () => {
    await invoiceSessions();
    await say('s4', 'user', 'invoice reminder for Initech');
    const gateway = new ScriptedGateway(() => ({
      skills: [
        { ...invoiceSkill, sessionIds: ['s1', 's2', 's4'], seeAlso: ['finance/invoice-reminders'] },
        { ...invoiceSkill, name: 'finance/invoice-reminders', sessionIds: ['s4', 's1'], seeAlso: ['finance/invoice-drafting'] },
      ],
    }));

    const plan = await h.run(new SkillGapPass({ minSessions: 3 }), gateway);

    expect(gateway.requests[0]!.data).toContain('at least 3 different sessions');
    expect(plan.refusals).toEqual([expect.stringContaining('fewer than the 3 a recurring request needs')]);
    expect(await h.skills.get('finance/invoice-drafting')).toMatchObject({ seeAlso: [] });

    const both = new ScriptedGateway(() => ({
      skills: [
        { ...invoiceSkill, name: 'finance/x', sessionIds: ['s1', 's2'], seeAlso: ['finance/y', 'finance/invoice-drafting'] },
        { ...invoiceSkill, name: 'finance/y', sessionIds: ['s1', 's2'], seeAlso: ['finance/x'] },
      ],
    }));
    await invoiceSessions();
    await h.run(new SkillGapPass(), both);
    expect(await h.skills.get('finance/x')).toMatchObject({ seeAlso: ['finance/y', 'finance/invoice-drafting'] });
    expect(await h.skills.get('finance/y')).toMatchObject({ seeAlso: ['finance/x'] });
  });

  it('lists the skills most related to the recurring terms when the catalogue does not fit its share of the budget', async () => {
    for (let n = 0; n < 60; n++) {
      await h.skills.save({
        name: `misc/skill-${String(n).padStart(2, '0')}`,
        summary: `Unrelated procedure number ${n} about gardening and pottery and more`,
        content: 'x',
      });
    }
    await h.skills.save({
      name: 'finance/invoice-archive',
      summary: 'Archive a paid invoice',
      content: 'Move the invoice to the archive.',
    });
    await invoiceSessions();
    const gateway = new ScriptedGateway(() => ({ skills: [] }));

    await h.plan(new SkillGapPass({ tokenBudget: 4000 }), gateway);

    const data = gateway.requests[0]!.data;
    expect(data).toContain('"finance/invoice-archive" : "Archive a paid invoice"');
    expect(data).toMatch(/The library has 61 skills; the \d+ most related to these requests are listed\./);
    expect(data.match(/^"misc\/skill-\d+" : /gm)!.length).toBeLessThan(60);
  });

  it('is skipped without a model, and rejects invalid options', async () => {
    expect(await new SkillGapPass().plan(h.context(undefined))).toEqual({ skipped: 'needs a language model' });
    expect(() => new SkillGapPass({ minSessions: 1 })).toThrow(/Invalid skill-gap options/);
    expect(() => new SkillGapPass({ protectedSkills: ['/abs'] })).toThrow(/Invalid skill-gap options/);
    expect(() => new SkillGapPass({ maxTurnsPerRun: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new SkillGapPass({ unknown: 1 } as never)).toThrow(/Invalid skill-gap options/);
    expect(new SkillGapPass().options).toEqual({ maxTurnsPerRun: 2000, tokenBudget: 12_000, minSessions: 2, protectedSkills: [] });
  });
});
