import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { invalidOptions, type OptionIssue, optionIssues } from '@reverie/core';
import type { z } from 'zod';
import { type DreamingOptions, dreamingOptionsSchema } from '../dreaming/dream-options';
import { assertSupportedPeers } from '../options/supported-peers';
import {
  conversationLogOptionsSchema,
  feedbackOptionsSchema,
  memoryOptionsSchema,
  type ReverieConfig,
  reverieConfigSchema,
  skillOptionsSchema,
  workflowLogOptionsSchema,
  workingMemoryOptionsSchema,
} from './builder-options';
import { postgresOptionsSchema } from './postgres-backend';
import { scopeDataPath } from './scope-data-path';

/** The concerns a builder enables with its `with…()` methods. */
export type Concern = 'memory' | 'workingMemory' | 'skills' | 'conversationLog' | 'feedback' | 'workflowLog' | 'dreaming';

const CONCERN_SCHEMAS = {
  memory: ['withMemory', memoryOptionsSchema],
  workingMemory: ['withWorkingMemory', workingMemoryOptionsSchema],
  skills: ['withSkills', skillOptionsSchema],
  conversationLog: ['withConversationLog', conversationLogOptionsSchema],
  feedback: ['withFeedback', feedbackOptionsSchema],
  workflowLog: ['withWorkflowLog', workflowLogOptionsSchema],
  dreaming: ['withDreaming', dreamingOptionsSchema],
} as const satisfies Record<Concern, readonly [string, z.ZodType]>;

/** `createReverie`'s options as validated. */
export type BuildConfig = z.output<typeof reverieConfigSchema>;

/** The options of every enabled concern, as validated. */
export interface ParsedConcerns {
  memory?: z.output<typeof memoryOptionsSchema>;
  workingMemory?: z.output<typeof workingMemoryOptionsSchema>;
  skills?: z.output<typeof skillOptionsSchema>;
  conversationLog?: z.output<typeof conversationLogOptionsSchema>;
  feedback?: z.output<typeof feedbackOptionsSchema>;
  workflowLog?: z.output<typeof workflowLogOptionsSchema>;
  dreaming?: DreamingOptions;
}

/** Every option checked at once: INVALID_OPTIONS listing each problem. `dataPath` comes back absolute, and a scope's own when one is set. */
export function validateBuild(
  rawConfig: ReverieConfig,
  concerns: ReadonlyMap<Concern, unknown>,
  rawPostgres: unknown,
): { config: BuildConfig; concerns: Map<Concern, never>; postgres: z.output<typeof postgresOptionsSchema> | undefined } {
  assertSupportedPeers();
  const problems: OptionIssue[] = [];
  const parse = <S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> | undefined => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    problems.push(...optionIssues(result.error).map(({ path, message }) => ({ path: [where, path].filter(Boolean).join('.'), message })));
    return undefined;
  };
  const config = parse(reverieConfigSchema, rawConfig, 'createReverie');
  const parsed = new Map<Concern, unknown>();
  for (const [concern, raw] of concerns) {
    const [method, schema] = CONCERN_SCHEMAS[concern];
    parsed.set(concern, parse(schema as z.ZodType, raw, method));
  }
  const postgres = rawPostgres === undefined ? undefined : parse(postgresOptionsSchema, rawPostgres, 'withPostgres');
  if (config) checkDataPath(config.dataPath, problems);
  const memoryOptions = parsed.get('memory') as z.output<typeof memoryOptionsSchema> | undefined;
  if (config && memoryOptions?.extract !== undefined && config.model === undefined) {
    problems.push({
      path: 'withMemory.extract',
      message: `taking facts from turns ('${memoryOptions.extract}') needs a language model: createReverie({ dataPath, model: openai('gpt-4.1-mini') })`,
    });
  }
  if (!config || problems.length > 0) {
    throw invalidOptions(`Invalid Reverie options — ${problems.map(({ path, message }) => `${path}: ${message}`).join('; ')}`, problems);
  }
  const root = resolve(config.dataPath);
  return {
    // On PostgreSQL a scope has no folder: the data directory keeps only what all scopes share (directives).
    config: { ...config, dataPath: config.scope === undefined || postgres ? root : scopeDataPath(root, config.scope) },
    concerns: parsed as Map<Concern, never>,
    postgres,
  };
}

function checkDataPath(dataPath: string, problems: OptionIssue[]): void {
  try {
    if (!statSync(dataPath).isDirectory())
      problems.push({ path: 'createReverie.dataPath', message: `${dataPath} exists and is not a directory` });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push({ path: 'createReverie.dataPath', message: `cannot use ${dataPath} (${(error as Error).message})` });
    }
  }
}
