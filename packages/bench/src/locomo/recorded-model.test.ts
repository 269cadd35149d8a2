import { describe, expect, it } from 'vitest';
import { promptKey, proposalsOf, type RecordedExchange, recordedCalls, RecordedModel } from './recorded-model';

const CONSOLIDATE = 'Tidy the memory. Reply in this shape: {"toDelete": [], "toSave": [], "toSupersede": []}';
const EPISODES = 'Keep the diary. Reply in this shape: {"episodes": []}';
const ids = { a: 'aaaaaaaaaaaa', b: 'bbbbbbbbbbbb', c: 'cccccccccccc', d: 'dddddddddddd', e: 'eeeeeeeeeeee', f: 'ffffffffffff' };
const shown = (...entries: string[]) =>
  `Entries:\n\`\`\`\n${entries.map((id) => `[${id}] (general) first=2023-05-01 : "entry ${id}"`).join('\n')}\n\`\`\``;
const save = (content: string, ...sourceIds: string[]) => ({ content, category: 'general', sourceIds });

const exchanges: RecordedExchange[] = [
  {
    number: 1,
    system: CONSOLIDATE,
    user: shown(ids.a, ids.b, ids.c, ids.d),
    reply: JSON.stringify({ toDelete: [ids.d], toSave: [save('A and B', ids.a, ids.b), save('C, filed', ids.c)] }),
  },
  {
    number: 2,
    system: CONSOLIDATE,
    user: `${shown(ids.a, ids.b, ids.c, ids.d)}\n\nRepair needed.`,
    reply: JSON.stringify({ toDelete: [ids.d], toSave: [save('A and B, repaired', ids.a, ids.b), save('C, filed', ids.c)] }),
  },
  {
    number: 3,
    system: CONSOLIDATE,
    user: shown(ids.e, ids.f),
    reply: `<think>…</think>${JSON.stringify({ toSave: [save('E and F', ids.e, ids.f)] })}`,
  },
  {
    number: 4,
    system: EPISODES,
    user: 'Session "s-1": 2 turn(s)\nSession "s-2": 1 turn(s)',
    reply: '{"episodes": [{"content": "A trip"}]}',
  },
];

async function ask(model: RecordedModel, system: string, user: string): Promise<string> {
  const result = await model.model.doGenerate({
    prompt: [
      { role: 'system', content: system },
      { role: 'user', content: [{ type: 'text', text: user }] },
    ],
  } as never);
  const part = result.content[0]!;
  return part.type === 'text' ? part.text : '';
}

describe('promptKey', () => {
  it('names the pass by the reply shape it asks for, and what it shows', () => {
    expect(promptKey(CONSOLIDATE, shown(ids.b, ids.a))).toEqual({ kind: 'toDelete', shown: [`entry:${ids.a}`, `entry:${ids.b}`] });
    expect(promptKey(EPISODES, exchanges[3]!.user)).toEqual({ kind: 'episodes', shown: ['session:s-1', 'session:s-2'] });
  });
});

describe('recordedCalls', () => {
  it('takes an exchange that shows what the one before it showed for its repair request', () => {
    expect(recordedCalls(exchanges).map((call) => [call.first.number, call.repair?.number])).toEqual([
      [1, 2],
      [3, undefined],
      [4, undefined],
    ]);
  });

  it('takes an exchange that shows only entries of several calls before it for the repair request of each', () => {
    const batched: RecordedExchange[] = [
      { ...exchanges[0]!, user: shown(ids.a, ids.b) },
      { ...exchanges[2]!, number: 2 },
      { number: 3, system: CONSOLIDATE, user: `${shown(ids.a, ids.b, ids.e)}\n\nRepair needed.`, reply: '{}' },
      { number: 4, system: CONSOLIDATE, user: shown(ids.c, ids.d), reply: '{}' },
    ];
    expect(recordedCalls(batched).map((call) => [call.first.number, call.repair?.number])).toEqual([
      [1, 3],
      [2, 3],
      [4, undefined],
    ]);
  });
});

describe('RecordedModel, one repair request for several calls', () => {
  it('answers it with the recorded repairs of every call whose entries it shows', async () => {
    const model = new RecordedModel(exchanges);
    await ask(model, CONSOLIDATE, shown(ids.a, ids.b, ids.c, ids.d));
    await ask(model, CONSOLIDATE, shown(ids.e, ids.f));
    expect(JSON.parse(await ask(model, CONSOLIDATE, `${shown(ids.a, ids.b, ids.e, ids.f)}\n\nRepair needed.`))).toEqual({
      toDelete: [],
      toSave: [save('A and B, repaired', ids.a, ids.b), save('E and F', ids.e, ids.f)],
      toSupersede: [],
    });
    expect(model.requests.map((request) => [request.answer, request.calls])).toEqual([
      ['first', [1]],
      ['first', [3]],
      ['repair', [1, 3]],
    ]);
  });
});

describe('proposalsOf', () => {
  it('reads the saves, distinct deletions and supersessions of a reply, around prose', () => {
    expect(proposalsOf(exchanges[0]!.reply).map((proposal) => [proposal.list, proposal.ids])).toEqual([
      ['toDelete', [ids.d]],
      ['toSave', [ids.a, ids.b]],
      ['toSave', [ids.c]],
    ]);
    expect(proposalsOf(exchanges[2]!.reply)).toHaveLength(1);
    expect(proposalsOf('no JSON here')).toEqual([]);
  });
});

describe('RecordedModel', () => {
  it('answers each consolidation prompt with the recorded proposals about what it shows, however the host packs the entries', async () => {
    const model = new RecordedModel(exchanges);
    expect(JSON.parse(await ask(model, CONSOLIDATE, shown(ids.a, ids.b, ids.e, ids.f)))).toEqual({
      toDelete: [],
      toSave: [save('A and B', ids.a, ids.b), save('E and F', ids.e, ids.f)],
      toSupersede: [],
    });
    // The repair request of that call: the recorded repair where there was one, the first reply where not.
    expect(JSON.parse(await ask(model, CONSOLIDATE, `${shown(ids.a, ids.b, ids.e, ids.f)}\n\nRepair item 1.`))).toEqual({
      toDelete: [],
      toSave: [save('A and B, repaired', ids.a, ids.b), save('E and F', ids.e, ids.f)],
      toSupersede: [],
    });
    expect(JSON.parse(await ask(model, CONSOLIDATE, shown(ids.c, ids.d)))).toEqual({
      toDelete: [ids.d],
      toSave: [save('C, filed', ids.c)],
      toSupersede: [],
    });
    expect(model.unreplayed).toBe(0);
    expect(model.requests.map((request) => [request.answer, request.calls, request.proposals])).toEqual([
      ['first', [1, 3], 2],
      ['repair', [1, 3], 2],
      ['first', [1], 2],
    ]);
  });

  it('replays a proposal only in a call that shows all of its entries, and each once', async () => {
    const model = new RecordedModel(exchanges);
    expect(JSON.parse(await ask(model, CONSOLIDATE, shown(ids.a, ids.c)))).toEqual({
      toDelete: [],
      toSave: [save('C, filed', ids.c)],
      toSupersede: [],
    });
    expect(JSON.parse(await ask(model, CONSOLIDATE, shown(ids.b, ids.d)))).toEqual({ toDelete: [ids.d], toSave: [], toSupersede: [] });
    expect(model.unreplayed).toBe(2);
    expect(model.recordedProposals).toBe(4);
  });

  it('answers another pass with its recorded reply, and what nothing matches with an empty reply', async () => {
    const model = new RecordedModel(exchanges);
    expect(await ask(model, EPISODES, 'Session "s-1": 2 turn(s)\nSession "s-2": 1 turn(s)')).toBe(exchanges[3]!.reply);
    expect(JSON.parse(await ask(model, 'Reply in this shape: {"skills": []}', 'Session "s-1": 2 turn(s)'))).toEqual({ skills: [] });
    expect(JSON.parse(await ask(model, CONSOLIDATE, shown('999999999999')))).toEqual({ toDelete: [] });
    expect(model.requests.map((request) => request.answer)).toEqual(['first', 'none', 'none']);
  });

  it('counts tokens as the recording endpoint did: characters / 4', async () => {
    const model = new RecordedModel(exchanges);
    const reply = await ask(model, EPISODES, exchanges[3]!.user);
    expect(model.requests[0]!.outputTokens).toBe(Math.ceil(reply.length / 4));
    expect(model.requests[0]!.inputTokens).toBeGreaterThan((EPISODES.length + exchanges[3]!.user.length) / 4);
  });
});
