import { UsageError } from '../errors/cli-error';

/** Which model `REVERIE_MODEL` names. */
export type ModelSpec =
  | { provider: 'openai' | 'anthropic' | 'ollama'; model: string }
  /** Any OpenAI-compatible endpoint, written `<base-url>#<model>`. */
  | { provider: 'openai-compatible'; baseURL: string; model: string };

export const MODEL_SPEC_FORMS = 'openai:<model>, anthropic:<model>, ollama:<model> or <base-url>#<model>';

const PROVIDERS = ['openai', 'anthropic', 'ollama'] as const;

/**
 * Parses `REVERIE_MODEL`: `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`,
 * `ollama:llama3.1:8b` (the model may itself hold colons), or
 * `https://llm.example.com/v1#my-model` for any OpenAI-compatible endpoint. Pure; a spec that
 * fits none of the forms is a usage error that lists them.
 */
export function parseModelSpec(raw: string): ModelSpec {
  const spec = raw.trim();
  const invalid = (why: string) => new UsageError(`REVERIE_MODEL=${JSON.stringify(raw)} ${why}: use ${MODEL_SPEC_FORMS}`);
  if (spec === '') throw invalid('is empty');

  const hash = spec.lastIndexOf('#');
  if (hash !== -1) {
    const base = spec.slice(0, hash);
    const model = spec.slice(hash + 1).trim();
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw invalid(`has no valid base URL before "#"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('needs an http:// or https:// base URL');
    if (model === '') throw invalid('names no model after "#"');
    return { provider: 'openai-compatible', baseURL: base.replace(/\/+$/, ''), model };
  }

  const colon = spec.indexOf(':');
  if (colon === -1) throw invalid('names no provider');
  const provider = spec.slice(0, colon).toLowerCase();
  const model = spec.slice(colon + 1).trim();
  if (!(PROVIDERS as readonly string[]).includes(provider)) throw invalid(`has an unknown provider "${spec.slice(0, colon)}"`);
  if (model === '') throw invalid('names no model');
  return { provider: provider as (typeof PROVIDERS)[number], model };
}

/** How a spec reads back in messages (`ollama:llama3.1`, `https://host/v1#model`). */
export function formatModelSpec(spec: ModelSpec): string {
  return spec.provider === 'openai-compatible' ? `${spec.baseURL}#${spec.model}` : `${spec.provider}:${spec.model}`;
}
