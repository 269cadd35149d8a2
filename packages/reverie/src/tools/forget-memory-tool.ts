import { parseRecord, ReverieError } from '@reverie/core';
import { z } from 'zod';
import { selectorFrom } from '../memory/forgetting/forget-selector';
import type { MemoryForgetting } from '../memory/forgetting/memory-forgetting';
import { defineTool } from './define-tool';
import type { ToolError } from './tool-error';

const forgetMemoryInput = z.object({
  ids: z.array(z.string()).nullish().describe('The ids of the entries to forget, as search_memory gave them.'),
  text: z.string().nullish().describe('Forget every entry whose content holds these exact words (any letter case).'),
  subject: z
    .string()
    .nullish()
    .describe('Forget everything about a name or phrase, e.g. "Alice\'s divorce": every entry that holds each of its words.'),
});

/** What forget_memory answers. */
export interface ForgetMemoryResult {
  forgotten: number;
  ids: string[];
  /** The run that can bring them back (`reverie dreams undo <runId>`), when something was forgotten. */
  runId?: string;
  notFound: string[];
  /** Entries that changed during the call and were left as they are. */
  changed: string[];
}

/**
 * SPEC B14, M6: `forget_memory`, the soft forget for an agent whose user asks it to forget
 * something: the entries leave memory at once, can be brought back by undoing the run, and are
 * not learnt again from the conversation.
 */
export function createForgetMemoryTool(
  forgetting: MemoryForgetting | undefined,
  explain: <T>(work: () => Promise<T>) => Promise<T | ToolError>,
) {
  return defineTool({
    description:
      'Forget something the user asked you to forget: entries by id, every entry holding some words, or everything about a subject. ' +
      'They leave memory at once and are not learnt again from the conversation; the user can still have them brought back.',
    inputSchema: forgetMemoryInput,
    execute: (input): Promise<ForgetMemoryResult | ToolError> =>
      explain(async () => {
        if (!forgetting)
          throw new ReverieError('INVALID_OPTIONS', 'forget_memory needs the tools of a built Reverie instance (reverie.tools.memory()).');
        const selector = selectorFrom(parseRecord(forgetMemoryInput, input, 'forget_memory input'), 'forget_memory');
        const receipt = await forgetting.forget(selector);
        return {
          forgotten: receipt.forgotten.length,
          ids: receipt.forgotten.map((entry) => entry.id),
          ...(receipt.runId === undefined ? {} : { runId: receipt.runId }),
          notFound: receipt.notFound,
          changed: receipt.changed,
        };
      }),
  });
}
