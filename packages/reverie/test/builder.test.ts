import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText } from 'ai';
import { MockEmbeddingModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryLongTermMemory, ManualClock, TOKENS } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { FileMemoryStore } from '@reverie/file-store';
import { createReverie, type Reverie, type ReverieBuilder } from 'reverie';
import { BUILT_IN_PASSES, type ServiceName } from '@reverie/dream/options';
import { planDreamPasses } from '../src/dreaming/dream-pass-catalog';
import { scriptedModel } from './scripted-model';

const fakeEmbeddingModel = new MockEmbeddingModelV3();

let root: string;
const built: Reverie[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-builder-'));
});
afterEach(async () => {
  for (const reverie of built.splice(0)) await reverie.close();
  rmSync(root, { recursive: true, force: true });
});
const keep = (reverie: Reverie) => {
  built.push(reverie);
  return reverie;
};

/** Whether a Reverie instance has the service behind a token. */
function hasService(reverie: Reverie, service: ServiceName): boolean {
  const byService = new Map<ServiceName, unknown>([
    ['memory', reverie.memory],
    ['skills', reverie.skills],
    ['skillUsage', reverie.skillUsage],
    ['conversationLog', reverie.conversationLog],
    ['feedback', reverie.feedback],
    ['workflowLog', reverie.workflowLog],
  ]);
  return byService.get(service) !== undefined;
}

const CONCERNS = ['withMemory', 'withWorkingMemory', 'withSkills', 'withConversationLog', 'withFeedback', 'withWorkflowLog'] as const;

describe('createReverie(...).build()', () => {
  it('resolves the whole graph for every combination of optional services, and plans passes to match', () => {
    for (let mask = 0; mask < 1 << CONCERNS.length; mask++) {
      const chosen = CONCERNS.filter((_, i) => mask & (1 << i));
      for (const withModel of [false, true]) {
        let builder: ReverieBuilder = createReverie({
          dataPath: join(root, `combo-${mask}-${withModel}`),
          ...(withModel ? { model: scriptedModel(['{}']) } : {}),
        });
        for (const concern of chosen) builder = builder[concern]();
        const reverie = keep(builder.withDreaming().build());
        const has = (c: (typeof CONCERNS)[number]) => chosen.includes(c);
        expect(reverie.memory !== undefined).toBe(has('withMemory'));
        expect(reverie.workingMemory !== undefined).toBe(has('withWorkingMemory'));
        expect(reverie.skills !== undefined).toBe(has('withSkills'));
        expect(reverie.skillUsage !== undefined).toBe(has('withSkills'));
        expect(reverie.conversationLog !== undefined).toBe(has('withConversationLog'));
        expect(reverie.feedback !== undefined).toBe(has('withFeedback'));
        expect(reverie.workflowLog !== undefined).toBe(has('withWorkflowLog'));

        const plan = reverie.dreams.plan();
        expect(plan.map((p) => p.name)).toEqual(BUILT_IN_PASSES.map((p) => p.name));
        const status = (name: string) => plan.find((p) => p.name === name)!.status;
        expect(status('importance-decay')).toBe(has('withMemory') ? 'would-run' : 'skipped');
        expect(status('memory-consolidation')).toBe(has('withMemory') ? 'would-run' : 'skipped');
        expect(status('archive-retention')).toBe('would-run');
        for (const pass of plan.filter((p) => p.status === 'skipped'))
          expect(pass.reason).toMatch(/needs|turned off|not part of this release/);

        // The requirement rules for every pass of the SPEC, as if the engine had them all.
        const full = planDreamPasses(
          (service) => hasService(reverie, service),
          withModel,
          reverie.dreams.options,
          BUILT_IN_PASSES.map((p) => p.name),
        );
        const fullStatus = (name: string) => full.find((p) => p.name === name)!.status;
        expect(fullStatus('preference-inference')).toBe(
          has('withMemory') && has('withConversationLog') && withModel ? 'would-run' : 'skipped',
        );
        expect(fullStatus('skill-optimization')).toBe(has('withSkills') && has('withFeedback') && withModel ? 'would-run' : 'skipped');
        expect(fullStatus('workflow-failure-analysis')).toBe(has('withSkills') && has('withWorkflowLog') ? 'would-run' : 'skipped');
      }
    }
  });

  it('says why a pass is skipped and honours the pass switches', () => {
    const reverie = keep(
      createReverie({ dataPath: root, model: scriptedModel(['{}']) })
        .withMemory()
        .withSkills()
        .withDreaming((defaults) => ({ ...defaults, interval: '2h', skillGap: { enabled: false } }))
        .build(),
    );
    const plan = planDreamPasses(
      (service) => hasService(reverie, service),
      true,
      reverie.dreams.options,
      BUILT_IN_PASSES.map((p) => p.name),
    );
    expect(plan.find((p) => p.name === 'skill-gap')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('skillGap.enabled'),
    });
    expect(plan.find((p) => p.name === 'episode-extraction')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('.withConversationLog()'),
    });
    expect(reverie.dreams.options.interval).toBe(2 * 60 * 60_000);
    expect(reverie.dreams.configured).toBe(true);
  });

  it('uses a custom store given with .use() or per method instead of the file default', async () => {
    const custom = new InMemoryLongTermMemory();
    const viaUse = keep(
      createReverie({ dataPath: join(root, 'a') })
        .withMemory()
        .use(TOKENS.LongTermMemory, custom)
        .build(),
    );
    expect(viaUse.memory!.store).toBe(custom);
    const viaOption = keep(
      createReverie({ dataPath: join(root, 'b') })
        .withMemory({ store: custom })
        .build(),
    );
    expect(viaOption.memory!.store).toBe(custom);
    await viaOption.memory!.save({ content: 'kept in the custom store' });
    expect(existsSync(join(root, 'b', 'memory'))).toBe(false);
    const fileDefault = keep(
      createReverie({ dataPath: join(root, 'c') })
        .withMemory()
        .build(),
    );
    expect(fileDefault.memory!.store).toBeInstanceOf(FileMemoryStore);
  });

  it('gives the memory store the thesaurus of withMemory({ synonyms })', async () => {
    const synonyms = (word: string) => (word === 'flat' ? ['apartment'] : []);
    const reverie = keep(createReverie({ dataPath: root }).withMemory({ synonyms }).build());
    const apartment = await reverie.memory!.save({ content: 'Maya rents an apartment in Alfama' });
    expect((await reverie.memory!.search({ text: 'flat' })).map((result) => result.entry.id)).toEqual([apartment.id]);
  });

  it('makes per-turn recall and search_memory search a second time for the best hit’s names with withMemory({ secondHop: true })', async () => {
    const recalled = async (secondHop: boolean) => {
      const reverie = keep(
        createReverie({ dataPath: join(root, String(secondHop)) })
          .withMemory({ secondHop })
          .build(),
      );
      const supervisor = await reverie.memory!.save({ content: 'My supervisor is Professor Ingrid Solberg.' });
      const sabbatical = await reverie.memory!.save({ content: 'Ingrid Solberg is on sabbatical in Tasmania until August.' });
      await reverie.memory!.save({ content: 'The supervisor of the night shift at the bakery changed.' });
      const turn = await reverie.context.forTurn({ sessionId: 's1', message: 'Where is my supervisor right now?' });
      const hits = (await reverie.tools.memory().search_memory.execute!(
        { query: 'where is my supervisor right now' },
        { toolCallId: 'c1', messages: [] },
      )) as Array<{ id: string }>;
      const found = (ids: string[]) => [ids.includes(supervisor.id), ids.includes(sabbatical.id)];
      return { turn: found(turn.injectedIds), tool: found(hits.map((hit) => hit.id)) };
    };
    expect(await recalled(false)).toEqual({ turn: [true, false], tool: [true, false] });
    expect(await recalled(true)).toEqual({ turn: [true, true], tool: [true, true] });
  });

  it('gives two instances in one process nothing in common', async () => {
    const a = keep(
      createReverie({ dataPath: join(root, 'a') })
        .withMemory()
        .withWorkingMemory()
        .build(),
    );
    const b = keep(
      createReverie({ dataPath: join(root, 'b') })
        .withMemory()
        .withWorkingMemory()
        .build(),
    );
    await a.memory!.save({ content: 'Only agent A knows the launch code word: pelican' });
    await a.workingMemory!.set('session/s1/secret', 'pelican');
    expect(await b.memory!.search({ text: 'pelican' })).toEqual([]);
    expect(await b.workingMemory!.get('session/s1/secret')).toBeUndefined();
    expect(a.activity).not.toBe(b.activity);
    a.activity.markUserActive();
    expect(b.activity.isUserActive()).toBe(false);
  });

  it('takes any IEmbedder as `embedder` and gives it to the memory store: recall becomes hybrid', async () => {
    const embedder = createFakeEmbedder({ synonyms: { automobile: 'car' } });
    const reverie = keep(createReverie({ dataPath: root, embedder }).withMemory().build());
    await reverie.memory!.save({ content: 'Parked the car on level 3' });
    await reverie.memory!.save({ content: 'Bought oat milk' });
    await reverie.memory!.search({ text: 'milk' });
    await vi.waitFor(() => expect(embedder.calls.flat()).toEqual(expect.arrayContaining(['Parked the car on level 3 general'])));
    const found = await reverie.memory!.search({ text: 'automobile', maxResults: 1 });
    expect(found.map((result) => result.entry.content)).toEqual(['Parked the car on level 3']);
  });

  it('gives the embedder to the skill store and working memory too, with withMemory’s threshold (SPEC M4)', async () => {
    const embedder = createFakeEmbedder({ synonyms: { automobile: 'car' } });
    const reverie = keep(
      createReverie({ dataPath: root, embedder }).withMemory({ minSimilarity: 0.2 }).withSkills().withWorkingMemory().build(),
    );
    await reverie.skills!.save({ name: 'errands/parking', summary: 'Where to leave the car', content: 'Level 3 of the garage.' });
    await reverie.workingMemory!.set('session/s1/parking', 'The car is on level 3');
    await reverie.skills!.search({ text: 'warm up' });
    await reverie.workingMemory!.search({ text: 'warm up' });
    await vi.waitFor(() => expect(embedder.calls.flat().filter((text) => text.includes('car'))).toHaveLength(2));
    expect((await reverie.skills!.search({ text: 'automobile' })).map((result) => result.skill.name)).toEqual(['errands/parking']);
    expect((await reverie.workingMemory!.search({ text: 'automobile' })).map((result) => result.entry.key)).toEqual(['session/s1/parking']);
  });

  it('closes the stores it created and stops their background work', async () => {
    const reverie = createReverie({ dataPath: root }).withMemory().withWorkingMemory().build();
    await reverie.memory!.save({ content: 'x' });
    await reverie.close();
    await expect(reverie.memory!.search({ text: 'x' })).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(reverie.workingMemory!.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await reverie.close();
  });
});

describe('bad options', () => {
  const expectInvalid = (build: () => unknown, field: RegExp) => {
    try {
      build();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
      expect((error as Error).message).toMatch(field);
      return;
    }
    throw new Error('build() accepted bad options');
  };

  it('names the bad field and creates nothing on disk', () => {
    const dataPath = join(root, 'never-created');
    expectInvalid(() => createReverie({ dataPath }).withWorkingMemory({ defaultTtl: -5 }).build(), /withWorkingMemory\.defaultTtl/);
    expectInvalid(
      () => createReverie({ dataPath }).withWorkingMemory({ defaultTtl: 'soon' }).build(),
      /withWorkingMemory\.defaultTtl.*not a duration/,
    );
    expectInvalid(() => createReverie({ dataPath, colour: 'blue' } as never).build(), /colour/);
    expectInvalid(() => createReverie({ dataPath }).withMemory({ minSimilarity: 3 }).build(), /withMemory\.minSimilarity/);
    expectInvalid(() => createReverie({ dataPath }).withDreaming({ interval: 'often' }).build(), /withDreaming\.interval/);
    expectInvalid(() => createReverie({ dataPath }).withDreaming({ maxReplyChars: 10 }).build(), /withDreaming\.maxReplyChars/);
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withDreaming({ consolidation: { maxOutputTokens: 10 } })
          .build(),
      /maxOutputTokens/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withDreaming({ episodes: { maxEpisodesPerSession: 0 } })
          .build(),
      /maxEpisodesPerSession/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withMemory({ store: {} as never })
          .build(),
      /withMemory\.store: must implement ILongTermMemory/,
    );
    expectInvalid(() => createReverie({ dataPath: '' }).build(), /dataPath/);
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withSkills({ protected: ['/mcp/*'] })
          .build(),
      /withSkills\.protected\.0: .*relative/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withMemory({ synonyms: { flat: ['apartment'] } as never })
          .build(),
      /withMemory\.synonyms/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withMemory({ secondHop: 'yes' as never })
          .build(),
      /withMemory\.secondHop/,
    );
    expectInvalid(
      () => createReverie({ dataPath, embedder: { modelId: 'x' } as never }).build(),
      /embedder: must be an IEmbedder: an object with a modelId string and an embed/,
    );
    expectInvalid(
      () => createReverie({ dataPath, embedder: createFakeEmbedder(), embeddingModel: fakeEmbeddingModel }).build(),
      /embedder: give embeddingModel or embedder, not both/,
    );
    expectInvalid(
      () => createReverie({ dataPath, model: 'openai:gpt-4.1-mini' as never }).build(),
      /createReverie\.model: "openai:gpt-4\.1-mini" is a model id string, .*import \{ openai \} from '@ai-sdk\/openai' and pass model: openai\("gpt-4\.1-mini"\)/,
    );
    expectInvalid(
      () => createReverie({ dataPath, embeddingModel: 'openai/text-embedding-3-small' as never }).build(),
      /createReverie\.embeddingModel: .*pass embeddingModel: openai\.embedding\("text-embedding-3-small"\)/,
    );
    expectInvalid(
      () => createReverie({ dataPath, model: { modelId: 'x' } as never }).build(),
      /createReverie\.model: must be an AI SDK language model/,
    );
    expectInvalid(
      () => createReverie({ dataPath, context: { sessionIdleTimeout: 'soon' } }).build(),
      /createReverie\.context\.sessionIdleTimeout: "soon" is not a duration/,
    );
    expectInvalid(
      () => createReverie({ dataPath, context: { sessionIdleTimeout: '31d' } }).build(),
      /sessionIdleTimeout must be at most 30 days/,
    );
    expectInvalid(
      () => createReverie({ dataPath, context: { sessionMemory: { tokenBudget: 10 } } }).build(),
      /createReverie\.context\.sessionMemory\.tokenBudget/,
    );
    expectInvalid(
      () => createReverie({ dataPath, context: { profile: { categories: ['_system/'] } } }).build(),
      /createReverie\.context\.profile\.categories\.0: "_system\/" holds Reverie's own records/,
    );
    expectInvalid(
      () => createReverie({ dataPath, context: { profile: { categories: ['a//b'] } } }).build(),
      /createReverie\.context\.profile\.categories\.0: "a\/\/b" is not a category/,
    );
    expectInvalid(
      () => createReverie({ dataPath, context: { profile: { tokenBudget: 0, maxEntries: 3 } as never } }).build(),
      /createReverie\.context\.profile/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withMemory({ decay: { graceDays: -1 } })
          .build(),
      /withMemory\.decay\.graceDays/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withMemory({ decay: { floor: 2 } })
          .build(),
      /withMemory\.decay\.floor/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withMemory({ decay: { halfLife: 10 } as never })
          .build(),
      /withMemory\.decay.*halfLife/,
    );
    expectInvalid(
      () =>
        createReverie({ dataPath })
          .withDreaming({ importanceDecay: { halfLifeDays: 10 } as never })
          .build(),
      /importanceDecay\.halfLifeDays.*withMemory\(\{ decay/,
    );
    expect(existsSync(dataPath)).toBe(false);
  });

  it('refuses a dataPath that is a file', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    expectInvalid(() => createReverie({ dataPath: file }).withMemory().build(), /dataPath: .* is not a directory/);
    expect(readdirSync(root)).toEqual(['a-file']);
  });
});

describe('activity tracking', () => {
  it('marks the user active while a wrapped model call runs, and aborts background work when a turn starts', async () => {
    const clock = new ManualClock();
    const reverie = keep(createReverie({ dataPath: root, clock }).build());
    let activeDuringCall = false;
    const inner = scriptedModel(['hello']);
    const original = inner.doGenerate.bind(inner);
    inner.doGenerate = async (options) => {
      activeDuringCall = reverie.activity.isUserActive();
      return original(options);
    };
    const background = reverie.activity.userTurnSignal();
    expect(reverie.activity.isUserActive()).toBe(false);
    await generateText({ model: reverie.trackActivity(inner), prompt: 'hi' });
    expect(activeDuringCall).toBe(true);
    expect(background.aborted).toBe(true);
    expect(reverie.activity.isUserActive()).toBe(true);
    clock.advance(5001);
    expect(reverie.activity.isUserActive()).toBe(false);
  });
});
