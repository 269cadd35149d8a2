import type { LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import type { WrappableModel } from '../builder/reverie';

/**
 * `wrapLanguageModel({ model, middleware })` from the AI SDK, applied at the model's first call:
 * the model returned now answers `provider`, `modelId` and `supportedUrls` from `model` (Reverie's
 * middlewares override none of them) and loads `ai` when `doGenerate` or `doStream` is first
 * called, so that `import('reverie')` does not load it (docs/architecture.md, "What loads lazily").
 * A host calling the model has loaded `ai` already; the import then costs nothing.
 */
export function wrapLanguageModelLazily(model: WrappableModel, middleware: LanguageModelMiddleware): ReturnType<typeof wrapLanguageModel> {
  let wrapped: Promise<ReturnType<typeof wrapLanguageModel>> | undefined;
  const load = () => (wrapped ??= import('ai').then((ai) => ai.wrapLanguageModel({ model, middleware })));
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (params) => (await load()).doGenerate(params),
    doStream: async (params) => (await load()).doStream(params),
  };
}
