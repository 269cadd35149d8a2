import type { EmbeddingModel, LanguageModel } from 'ai';
import { z } from 'zod';
import { hasMethods } from '@reverie/core/internal';

/** A language model object (`openai('gpt-4.1-mini')`): what `createReverie({ model })` takes. */
export type LanguageModelObject = Exclude<LanguageModel, string>;
/** An embedding model object (`openai.embedding('text-embedding-3-small')`). */
export type EmbeddingModelObject = Exclude<EmbeddingModel, string>;

/** Providers whose AI SDK package and factory an example can name. */
const PROVIDERS = new Map([
  ['openai', '@ai-sdk/openai'],
  ['anthropic', '@ai-sdk/anthropic'],
  ['google', '@ai-sdk/google'],
  ['mistral', '@ai-sdk/mistral'],
]);

/**
 * What to write instead of a model id string (`'openai:gpt-4.1-mini'`, the CLI's REVERIE_MODEL
 * syntax, or an AI SDK gateway id): the provider's package and factory, with the id given. Pure.
 */
export function modelObjectAdvice(id: string, kind: 'model' | 'embeddingModel'): string {
  const separator = id.search(/[:/]/);
  const provider = separator > 0 ? id.slice(0, separator) : undefined;
  const modelId = separator > 0 ? id.slice(separator + 1) : id;
  const known = provider === undefined ? undefined : PROVIDERS.get(provider);
  const factory = known ? provider! : 'openai';
  const call =
    kind === 'model'
      ? `${factory}(${JSON.stringify(known ? modelId : 'gpt-4.1-mini')})`
      : `${factory}.embedding(${JSON.stringify(known ? modelId : 'text-embedding-3-small')})`;
  return (
    `${JSON.stringify(id)} is a model id string, and Reverie needs the model object a provider package makes: ` +
    `import { ${factory} } from '${known ?? '@ai-sdk/openai'}' and pass ${kind}: ${call}` +
    " (the provider:model syntax is the reverie CLI's REVERIE_MODEL, which the CLI turns into such an object)"
  );
}

/** A language model object of the AI SDK (specification v2 or v3, which `ai@6` calls); a string is refused with `modelObjectAdvice`. */
export const languageModelOption = z.custom<LanguageModelObject>().superRefine((value, context) => {
  if (typeof value === 'string') context.addIssue({ code: 'custom', message: modelObjectAdvice(value, 'model') });
  else if (!hasMethods(value, ['doGenerate']))
    context.addIssue({ code: 'custom', message: 'must be an AI SDK language model, such as openai("gpt-4.1-mini") from @ai-sdk/openai' });
});

/** An embedding model object of the AI SDK; a string is refused with `modelObjectAdvice`. */
export const embeddingModelOption = z.custom<EmbeddingModelObject>().superRefine((value, context) => {
  if (typeof value === 'string') context.addIssue({ code: 'custom', message: modelObjectAdvice(value, 'embeddingModel') });
  else if (!hasMethods(value, ['doEmbed']))
    context.addIssue({
      code: 'custom',
      message: 'must be an AI SDK embedding model, such as openai.embedding("text-embedding-3-small") from @ai-sdk/openai',
    });
});
