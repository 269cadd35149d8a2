import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stepCountIs, ToolLoopAgent } from 'ai';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createReverie, type MemoryTools, type Reverie, type WorkingMemoryTools } from 'reverie';
import { scriptedModel } from './scripted-model';

// `pnpm typecheck` compiles this file: a tool of forSession() that the builder added is typed as
// present, so a typed tool loop reads it without `!` (TS18048 "possibly undefined" before).
let dataPath: string;
let reverie: Reverie | undefined;
afterEach(async () => {
  await reverie?.close();
  rmSync(dataPath, { recursive: true, force: true });
});

describe('tools.forSession() typing', () => {
  it('has every tool of the families the builder added, each present', async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'reverie-tool-types-'));
    const built = createReverie({ dataPath }).withMemory().withWorkingMemory().build();
    reverie = built;
    const tools = built.tools.forSession('s1');
    expectTypeOf(tools.save_memory).toEqualTypeOf<MemoryTools['save_memory']>();
    expectTypeOf(tools.get_from_working_memory).toEqualTypeOf<WorkingMemoryTools['get_from_working_memory']>();
    expect(Object.keys(tools).sort()).toEqual([
      'delete_memory',
      'forget_memory',
      'get_from_working_memory',
      'list_memory_categories',
      'list_working_memory',
      'save_memory',
      'save_to_working_memory',
      'search_memory',
      'search_working_memory',
    ]);

    const agent = new ToolLoopAgent({
      model: scriptedModel([{ toolCalls: [{ toolName: 'save_memory', input: { content: 'The user is allergic to peanuts' } }] }, 'Noted.']),
      tools,
      stopWhen: stepCountIs(3),
    });
    const result = await agent.generate({ prompt: 'Remember my peanut allergy.' });
    let content: string | undefined;
    for (const call of result.steps.flatMap((step) => step.toolCalls)) {
      // A typed tool's typed input: no "possibly undefined" on the way.
      if (!call.dynamic && call.toolName === 'save_memory') content = call.input.content;
    }
    expect(content).toBe('The user is allergic to peanuts');
  });

  it('has only the memory tools without .withWorkingMemory()', () => {
    dataPath = mkdtempSync(join(tmpdir(), 'reverie-tool-types-'));
    const built = createReverie({ dataPath }).withMemory().build();
    reverie = built;
    const tools = built.tools.forSession('s1');
    expectTypeOf(tools).toEqualTypeOf<MemoryTools & Record<never, never>>();
    expect(Object.keys(tools)).not.toContain('save_to_working_memory');
  });
});
