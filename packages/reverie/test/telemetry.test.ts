import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createReverie, type DreamPass, type Reverie } from 'reverie';
import { scriptedModel } from './scripted-model';

// SPEC E3: Reverie's spans read back with the OpenTelemetry SDK's in-memory exporter. The tracer
// is given as `telemetry.tracer`, so nothing is registered globally but the context manager
// (which the host's SDK set-up registers, and which nests a span under the active one).

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('telemetry-test');
const contextManager = new AsyncLocalStorageContextManager();

let root: string;
let reverie: Reverie | undefined;
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  contextManager.disable();
  context.disable();
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-telemetry-'));
  exporter.reset();
});
afterEach(async () => {
  await reverie?.close();
  reverie = undefined;
  rmSync(root, { recursive: true, force: true });
});

const named = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

const tally: DreamPass = {
  name: 'tally',
  phase: 'deep-sleep',
  requires: ['memory'],
  model: 'none',
  async plan({ services }) {
    const entries = await services.memory!.list();
    return { operations: [], itemsProcessed: entries.length, notes: [], refusals: ['one refusal, for the span'] };
  },
};

describe('createReverie({ telemetry })', () => {
  it('names recall, saves and deletes after the GenAI memory conventions, without the query text unless asked', async () => {
    reverie = createReverie({ dataPath: root, logger: 'silent', scope: 'user:9', telemetry: { tracer } }).withMemory().build();
    const saved = await reverie.memory!.save({ content: 'Ana is allergic to peanuts', category: 'people/ana' });
    const hits = await reverie.memory!.search({ text: 'peanut allergy', maxResults: 5 });
    await reverie.memory!.delete(saved.id);

    const [update] = named('update_memory user:9');
    expect(update?.attributes).toMatchObject({
      'gen_ai.operation.name': 'update_memory',
      'gen_ai.provider.name': 'reverie',
      'gen_ai.memory.store.id': 'user:9',
      'gen_ai.memory.record.id': saved.id,
      'gen_ai.memory.category': 'people/ana',
    });
    const [search] = named('search_memory user:9');
    expect(search?.attributes).toMatchObject({
      'gen_ai.operation.name': 'search_memory',
      'gen_ai.memory.search.result.count': hits.length,
      'gen_ai.memory.record.ids': hits.map((hit) => hit.entry.id),
      'gen_ai.memory.search.max_results': 5,
    });
    expect(search?.attributes['gen_ai.memory.query.text']).toBeUndefined();
    expect(named('delete_memory user:9')[0]?.attributes).toMatchObject({
      'gen_ai.memory.record.id': saved.id,
      'gen_ai.memory.deleted.count': 1,
    });
    // Reads by id and listings are not memory operations of the conventions.
    expect(
      exporter
        .getFinishedSpans()
        .map((span) => span.name)
        .sort(),
    ).toEqual(['delete_memory user:9', 'search_memory user:9', 'update_memory user:9']);
  });

  it('names a forget delete_memory, with its mode and the ids it took out', async () => {
    reverie = createReverie({ dataPath: root, logger: 'silent', telemetry: { tracer } }).withMemory().build();
    const saved = await reverie.memory!.save({ content: 'Ana moved to Lisbon' });
    exporter.reset();
    await reverie.memory!.forget({ ids: [saved.id] });
    const forget = exporter.getFinishedSpans().find((span) => span.attributes['reverie.memory.forget.mode'] === 'soft');
    expect(forget?.name).toBe('delete_memory default');
    expect(forget?.attributes).toMatchObject({ 'gen_ai.operation.name': 'delete_memory', 'gen_ai.memory.record.ids': [saved.id] });
  });

  it('puts the query text on the span with recordInputs: true, and marks a failed call', async () => {
    reverie = createReverie({ dataPath: root, logger: 'silent', telemetry: { tracer, recordInputs: true } })
      .withMemory()
      .build();
    await reverie.memory!.search({ text: 'where does Ana live' });
    expect(named('search_memory default')[0]?.attributes['gen_ai.memory.query.text']).toBe('where does Ana live');
    await expect(reverie.memory!.search({ text: 'x', maxResults: -1 })).rejects.toThrow();
    const failed = named('search_memory default')[1];
    expect(failed?.status.code).toBe(2);
    expect(failed?.events.some((event) => event.name === 'exception')).toBe(true);
  });

  it('traces a dream run with a child span per pass, and the passes’ model calls carry the host’s settings', async () => {
    reverie = createReverie({
      dataPath: root,
      logger: 'silent',
      model: scriptedModel(['{"toDelete": [], "toSave": []}']),
      telemetry: { tracer, functionId: 'support-agent', metadata: { tenant: 'acme' } },
    })
      .withMemory()
      .withDreaming({ enabled: false, passes: [tally] })
      .build();
    await reverie.memory!.save({ content: 'The user moved to Porto' });
    await reverie.memory!.save({ content: 'The user now lives in Porto, Portugal' });
    exporter.reset();
    const report = await reverie.dreams.run();

    const [run] = named('dream_run');
    expect(run?.attributes).toMatchObject({ 'reverie.dream.run_id': report.runId, 'reverie.dream.dry_run': false });
    const passSpans = exporter.getFinishedSpans().filter((span) => span.name.startsWith('dream_pass '));
    expect(passSpans.map((span) => span.name.slice('dream_pass '.length))).toEqual(report.passes.map((pass) => pass.name));
    for (const span of passSpans) expect(parentOf(span)).toBe(run!.spanContext().spanId);
    expect(named('dream_pass tally')[0]?.attributes).toMatchObject({
      'reverie.dream.pass.outcome': 'ok',
      'reverie.dream.pass.items_processed': 2,
      'reverie.dream.pass.refusals': 1,
      'reverie.dream.pass.phase': 'deep-sleep',
    });

    // The consolidation pass asked the model: the AI SDK's span nests under the pass's span, with the host's settings.
    const [consolidation] = named('dream_pass memory-consolidation');
    const modelCalls = exporter.getFinishedSpans().filter((span) => span.name === 'ai.generateText');
    expect(modelCalls.length).toBeGreaterThan(0);
    expect(parentOf(modelCalls[0]!)).toBe(consolidation!.spanContext().spanId);
    expect(modelCalls[0]!.attributes).toMatchObject({
      'ai.telemetry.functionId': 'support-agent',
      'ai.telemetry.metadata.tenant': 'acme',
      'ai.telemetry.metadata.reverie.pass': 'memory-consolidation',
    });
    expect(consolidation!.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
  });

  it('emits nothing without telemetry, or with isEnabled: false, and refuses an option that is not one', async () => {
    reverie = createReverie({ dataPath: root, logger: 'silent', telemetry: { tracer, isEnabled: false } })
      .withMemory()
      .build();
    await reverie.memory!.search({ text: 'anything' });
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(() => createReverie({ dataPath: root, telemetry: { tracer: {} } as never }).build()).toThrow(/OpenTelemetry Tracer/);
    expect(() => createReverie({ dataPath: root, telemetry: { recordInput: true } as never }).build()).toThrow(/recordInput/);
  });
});
