import type { LanguageModel } from 'ai';

/** A provider's model object: what `createReverie({ model })` takes (never a model id string). */
export type LanguageModelObject = Exclude<LanguageModel, string>;
import { UsageError } from '../errors/cli-error';
import { formatModelSpec, type ModelSpec, parseModelSpec } from './parse-model-spec';

export const DEFAULT_OLLAMA_BASE_URL = 'http://localhost:11434/v1';

export interface LoadedModel {
  spec: ModelSpec;
  /** The spec as the user wrote it, normalised (`ollama:llama3.1`). */
  label: string;
  model: LanguageModelObject;
}

/** The API key variable a provider needs, if any. */
export function requiredKeyVariable(spec: ModelSpec): string | undefined {
  if (spec.provider === 'openai') return 'OPENAI_API_KEY';
  if (spec.provider === 'anthropic') return 'ANTHROPIC_API_KEY';
  return undefined;
}

/**
 * The model `REVERIE_MODEL` names, or undefined when it is not set. Providers are imported
 * only when used. A bad spec, or a provider whose API key is missing, is a usage error: it is
 * caught before a run starts rather than as a failed pass.
 */
export async function loadModel(env: NodeJS.ProcessEnv): Promise<LoadedModel | undefined> {
  const raw = env.REVERIE_MODEL;
  if (raw === undefined || raw.trim() === '') return undefined;
  const spec = parseModelSpec(raw);
  const key = requiredKeyVariable(spec);
  if (key && !env[key]) throw new UsageError(`REVERIE_MODEL=${raw} needs ${key} to be set`);
  return { spec, label: formatModelSpec(spec), model: await createModel(spec, env) };
}

async function createModel(spec: ModelSpec, env: NodeJS.ProcessEnv): Promise<LanguageModelObject> {
  switch (spec.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: env.OPENAI_API_KEY })(spec.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: env.ANTHROPIC_API_KEY })(spec.model);
    }
    case 'ollama': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const baseURL = env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_BASE_URL;
      return createOpenAICompatible({ name: 'ollama', baseURL }).chatModel(spec.model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: spec.baseURL,
        ...(env.REVERIE_API_KEY ? { apiKey: env.REVERIE_API_KEY } : {}),
      }).chatModel(spec.model);
    }
  }
}
