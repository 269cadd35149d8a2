import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Skill } from '@reverie/core';
import { ScriptedGateway } from '../__fixtures__/scripted-gateway';
import { SkillPassHarness } from '../skill-common/__fixtures__/skill-pass-harness';
import { SKILL_OPTIMIZE_DIRECTIVE, SKILL_OPTIMIZE_DIRECTIVE_FILE } from './render-skill-optimization-prompt';
import { SkillOptimizationPass } from './skill-optimization-pass';

const CREATED = '2026-04-01T09:00:00.000Z';
const NOW = '2026-06-01T12:00:00.000Z';
const TAG = /\[(skip|correction|permanent|durable|ephemeral)\]/i;
const INVOICE_CONTENT =
  '# Drafting an invoice\n1. Ask for the client, the period and the hours worked.\n2. Number the invoice after the last one sent.\n3. Set the due date to 30 days unless the contract says otherwise.\n4. Send it as PDF to the client contact.';

let h: SkillPassHarness;
beforeEach(async () => {
  h = await SkillPassHarness.create(CREATED);
});
afterEach(async () => {
  await h.dispose();
});

/** A skill created long ago and used since, then the clock moved to NOW. */
async function library(): Promise<{ invoice: Skill; notes: Skill; mail: Skill }> {
  const invoice = await h.skills.save({
    name: 'finance/invoice',
    summary: 'Draft invoices',
    content: INVOICE_CONTENT,
    lastUsedAt: '2026-05-20T09:00:00.000Z',
  });
  const notes = await h.skills.save({ name: 'notes/meeting', summary: 'Meeting notes', content: 'Write notes.' });
  const mail = await h.skills.save({ name: 'mcp/email', summary: 'Send mail', content: 'Use the mail tool.' });
  h.clock.set(NOW);
  await h.usage.record({ skill: 'finance/invoice', sessionId: 's1', timestamp: '2026-05-28T10:00:00.000Z' });
  await h.usage.record({ skill: 'mcp/email', sessionId: 's1', timestamp: '2026-05-28T10:05:00.000Z' });
  await h.feedback.record({
    kind: 'correction',
    sessionId: 's1',
    text: 'The invoice had no VAT line [correction]',
    timestamp: '2026-05-28T10:10:00.000Z',
  });
  return { invoice, notes, mail };
}

const betterInvoice = {
  name: 'finance/invoice',
  summary: 'Draft invoices for clients, with VAT',
  content: `${INVOICE_CONTENT}\n5. Add the VAT line for the client's country before sending.`,
};

describe('SkillOptimizationPass (SPEC D10)', () => {
  it('sends at-risk skills with their failure context and sparse skills with a note, and saves a rewrite keeping createdAt and lastUsedAt', async () => {
    const { invoice } = await library();
    const gateway = new ScriptedGateway(() => ({ toSave: [betterInvoice] }));

    const plan = await h.plan(new SkillOptimizationPass({ protectedSkills: ['mcp/*'] }), gateway);

    expect(gateway.requests).toHaveLength(1);
    const request = gateway.requests[0]!;
    expect(request).toMatchObject({
      pass: 'skill-optimization',
      directiveFile: SKILL_OPTIMIZE_DIRECTIVE_FILE,
      builtInDirective: SKILL_OPTIMIZE_DIRECTIVE,
    });
    expect(request.data).toContain('Skills shown (the only names allowed in toSave): "finance/invoice", "notes/meeting".');
    expect(request.data).toContain('At risk: used in 1 session(s) of the last 30 days');
    expect(request.data).toContain('correction: "The invoice had no VAT line [correction]"');
    expect(request.data).toContain('Sparse: its content has only 12 characters (under 200).');
    expect(request.data).not.toContain('mcp/email');
    expect(plan.notes).toContain('1 at-risk and 1 sparse skill(s) sent');
    expect(plan.notes).toContain('1 protected skill(s) left out');
    expect(plan.details).toEqual({ atRisk: [{ name: 'finance/invoice', sessions: ['s1'] }], sparse: ['notes/meeting'] });
    expect(plan.refusals).toEqual([]);
    expect(plan.operations).toEqual([
      {
        op: 'skill.save',
        skill: { ...invoice, ...betterInvoice, updatedAt: NOW },
        expectUpdatedAt: invoice.updatedAt,
        reason: 'skill-optimization: rewrote finance/invoice: used in 1 session(s) with problems ("s1")',
      },
    ]);

    await h.apply(plan);
    expect(await h.skills.get('finance/invoice')).toMatchObject({
      ...betterInvoice,
      createdAt: invoice.createdAt,
      lastUsedAt: '2026-05-20T09:00:00.000Z',
    });
  });

  it('refuses a shorter rewrite without a reason, and accepts and records one with a reason', async () => {
    await library();
    const shorter = { ...betterInvoice, content: '# Invoice\n1. Ask for the hours.\n2. Add VAT.' };
    const refused = await h.plan(new SkillOptimizationPass(), new ScriptedGateway(() => ({ toSave: [shorter] })));
    expect(refused.operations).toEqual([]);
    expect(refused.refusals).toEqual([
      `call 1, rewrite 1 ("finance/invoice") refused: the rewrite is shorter than the original (${INVOICE_CONTENT.length} → ${shorter.content.length} characters) and gives no shorterBecause`,
    ]);

    const accepted = await h.run(
      new SkillOptimizationPass(),
      new ScriptedGateway(() => ({
        toSave: [{ ...shorter, shorterBecause: 'Steps 2 and 3 were [durable] duplicated by the mail skill' }],
      })),
    );
    const change = `shorter (${INVOICE_CONTENT.length} → ${shorter.content.length} characters) because: Steps 2 and 3 were duplicated by the mail skill`;
    expect(accepted.refusals).toEqual([]);
    expect(accepted.notes).toContain(`finance/invoice: ${change}`);
    expect(accepted.operations[0]).toMatchObject({ reason: expect.stringContaining(change) });
    expect(await h.skills.get('finance/invoice')).toMatchObject({ content: shorter.content });
  });

  it('refuses names that were not sent (unknown, protected) and a second rewrite of the same skill', async () => {
    await library();
    const gateway = new ScriptedGateway(() => ({
      toSave: [
        { name: 'mcp/email', summary: 'Send mail', content: 'Use the mail tool. Always check the recipient twice before sending.' },
        { name: 'ghost/skill', summary: 'Ghost', content: 'Boo.' },
        betterInvoice,
        { ...betterInvoice, summary: 'Second try' },
      ],
    }));

    const plan = await h.run(new SkillOptimizationPass({ protectedSkills: ['mcp/*'] }), gateway);

    expect(plan.refusals).toEqual([
      'call 1, rewrite 1 ("mcp/email") refused: unknown: "mcp/email" was not sent as a candidate in this call',
      'call 1, rewrite 2 ("ghost/skill") refused: unknown: "ghost/skill" was not sent as a candidate in this call',
      'call 1, rewrite 4 ("finance/invoice") refused: "finance/invoice" was already rewritten earlier in this run; the first rewrite wins',
    ]);
    expect(await h.skills.get('mcp/email')).toMatchObject({ content: 'Use the mail tool.' });
    expect(await h.skills.get('ghost/skill')).toBeUndefined();
    expect(await h.skills.get('finance/invoice')).toMatchObject({ summary: betterInvoice.summary });
  });

  it('strips retention hints, keeps seeAlso only for skills that exist, and keeps the old seeAlso when none is given', async () => {
    await library();
    await h.skills.save({
      name: 'notes/meeting',
      summary: 'Meeting notes',
      content: 'Write notes.',
      seeAlso: ['finance/invoice'],
      createdAt: CREATED,
    });
    const gateway = new ScriptedGateway(() => ({
      toSave: [
        {
          ...betterInvoice,
          summary: '[durable] Draft invoices',
          content: `${betterInvoice.content} [correction]`,
          seeAlso: ['notes/meeting', 'ghost/skill', 'finance/invoice'],
        },
        {
          name: 'notes/meeting [permanent]',
          summary: 'Meeting notes',
          content: '# Meeting notes\n1. List attendees.\n2. Record decisions and owners. [skip]',
        },
      ],
    }));

    const plan = await h.run(new SkillOptimizationPass(), gateway);

    expect(plan.refusals).toEqual([]);
    expect(plan.notes).toContain('call 1, rewrite 1 ("finance/invoice"): seeAlso "ghost/skill" dropped: no such skill');
    const invoice = await h.skills.get('finance/invoice');
    expect(invoice).toMatchObject({ summary: 'Draft invoices', content: betterInvoice.content, seeAlso: ['notes/meeting'] });
    const meeting = await h.skills.get('notes/meeting');
    expect(meeting).toMatchObject({
      content: '# Meeting notes\n1. List attendees.\n2. Record decisions and owners.',
      seeAlso: ['finance/invoice'],
    });
    expect(JSON.stringify(await h.skills.list())).not.toMatch(TAG);
  });

  it('counts poor and fair session summaries, ignores good ones and feedback outside the window', async () => {
    await h.skills.save({ name: 'devops/deploy', summary: 'Deploy', content: INVOICE_CONTENT });
    await h.skills.save({ name: 'devops/rollback', summary: 'Roll back', content: INVOICE_CONTENT });
    await h.skills.save({ name: 'devops/old', summary: 'Old', content: INVOICE_CONTENT });
    h.clock.set(NOW);
    await h.usage.record({ skill: 'devops/deploy', sessionId: 's2', timestamp: '2026-05-30T10:00:00.000Z' });
    await h.usage.record({ skill: 'devops/rollback', sessionId: 's3', timestamp: '2026-05-30T10:00:00.000Z' });
    await h.usage.record({ skill: 'devops/old', sessionId: 's4', timestamp: '2026-04-10T10:00:00.000Z' });
    await h.feedback.record({
      kind: 'session-summary',
      rating: 'fair',
      sessionId: 's2',
      text: 'Deploy needed two retries',
      timestamp: '2026-05-30T11:00:00.000Z',
    });
    await h.feedback.record({
      kind: 'session-summary',
      rating: 'good',
      sessionId: 's3',
      text: 'Smooth',
      timestamp: '2026-05-30T11:00:00.000Z',
    });
    await h.feedback.record({ kind: 'correction', sessionId: 's4', text: 'Wrong server', timestamp: '2026-04-10T11:00:00.000Z' });
    const gateway = new ScriptedGateway(() => ({ toSave: [] }));

    const plan = await h.plan(new SkillOptimizationPass(), gateway);

    expect(plan.details).toEqual({ atRisk: [{ name: 'devops/deploy', sessions: ['s2'] }], sparse: [] });
    expect(gateway.requests[0]!.data).toContain('session-summary rating=fair: "Deploy needed two retries"');
    expect(gateway.requests[0]!.data).not.toContain('Wrong server');

    const wide = await h.plan(new SkillOptimizationPass({ windowDays: 90 }), new ScriptedGateway(() => ({ toSave: [] })));
    expect(wide.details).toMatchObject({ atRisk: [{ name: 'devops/deploy' }, { name: 'devops/old' }] });
  });

  it('is skipped when nothing is at risk or sparse (protected skills do not count), or without a model', async () => {
    await h.skills.save({ name: 'finance/invoice', summary: 'Draft invoices', content: INVOICE_CONTENT });
    await h.skills.save({ name: 'mcp/email', summary: 'Send mail', content: 'Short.' });
    await h.skills.save({ name: 'notes/new', summary: 'New', content: 'Short but new.', createdAt: '2026-05-30T00:00:00.000Z' });
    h.clock.set(NOW);
    const gateway = new ScriptedGateway();
    const pass = new SkillOptimizationPass({ protectedSkills: ['mcp/**'] });
    expect(await pass.plan(h.context(gateway))).toEqual({ skipped: 'no at-risk or sparse skills' });
    expect(gateway.requests).toHaveLength(0);
    expect(await pass.plan(h.context(undefined))).toEqual({ skipped: 'needs a language model' });
  });

  it('packs many candidates into several calls under the token budget, and each call may rewrite only its own', async () => {
    for (let n = 0; n < 6; n++)
      await h.skills.save({ name: `notes/s${n}`, summary: `Note ${n}`, content: `Short ${n}. ${'x'.repeat(150)}` });
    h.clock.set(NOW);
    const gateway = new ScriptedGateway((_data, call) =>
      call === 2 ? { toSave: [{ name: 'notes/s0', summary: 'Note 0', content: 'y'.repeat(400) }] } : { toSave: [] },
    );

    const plan = await h.plan(new SkillOptimizationPass({ tokenBudget: 1000, maxSkillsPerRun: 5 }), gateway);

    expect(gateway.requests.length).toBeGreaterThan(1);
    expect(gateway.requests[0]!.data).toContain('"notes/s0"');
    expect(gateway.requests[1]!.data).not.toContain('"notes/s0"');
    expect(plan.refusals).toEqual(['call 2, rewrite 1 ("notes/s0") refused: unknown: "notes/s0" was not sent as a candidate in this call']);
    expect(plan.notes).toContain('maxSkillsPerRun (5) reached: 1 candidate(s) left for a later run');
  });

  it('saves nothing for a rewrite identical to the stored skill', async () => {
    const { invoice } = await library();
    const plan = await h.plan(
      new SkillOptimizationPass(),
      new ScriptedGateway(() => ({ toSave: [{ name: invoice.name, summary: invoice.summary, content: invoice.content }] })),
    );
    expect(plan.operations).toEqual([]);
    expect(plan.notes).toContain('call 1, rewrite 1 ("finance/invoice"): identical to the stored skill; nothing to save');
  });

  it('rejects invalid options and has documented defaults', () => {
    expect(() => new SkillOptimizationPass({ windowDays: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new SkillOptimizationPass({ protectedSkills: [''] })).toThrow(/Invalid skill-optimization options/);
    expect(() => new SkillOptimizationPass({ other: true } as never)).toThrow(/Invalid skill-optimization options/);
    expect(new SkillOptimizationPass().options).toEqual({
      windowDays: 30,
      sparseChars: 200,
      sparseMinAgeDays: 7,
      protectedSkills: [],
      maxSkillsPerRun: 20,
      tokenBudget: 12_000,
    });
  });
});
