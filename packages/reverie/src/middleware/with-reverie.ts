import { invalidOptions } from '@reverie/core';
import type { Reverie, WrappableModel } from '../builder/reverie';
import type { MiddlewareOptions } from './reverie-middleware';
import { wrapLanguageModelLazily } from './wrap-language-model-lazily';

export interface WithReverieOptions extends MiddlewareOptions {
  /** The instance built with `createReverie(...)…build()`. */
  reverie: Reverie;
}

/**
 * The one-line integration (SPEC E1): `model` wrapped with `reverie.middleware(options)`, ready
 * for `generateText` and `streamText`.
 *
 * ```ts
 * const model = withReverie(openai('gpt-4.1-mini'), { reverie, sessionId: 'chat-1' });
 * ```
 */
export function withReverie(model: WrappableModel, options: WithReverieOptions): WrappableModel {
  const { reverie, ...middleware } = options ?? ({} as WithReverieOptions);
  if (typeof reverie?.middleware !== 'function') {
    throw invalidOptions('withReverie(model, options) needs options.reverie: the instance returned by createReverie(...).build().', [
      { path: 'reverie', message: 'the instance returned by createReverie(...).build()' },
    ]);
  }
  if (typeof model !== 'object' || model === null || typeof model.doGenerate !== 'function') {
    throw invalidOptions(
      'withReverie(model, options) needs a provider model object, such as openai("gpt-4.1-mini"); a model id string cannot be wrapped.',
      [{ path: 'model', message: 'a provider model object' }],
    );
  }
  return wrapLanguageModelLazily(model, reverie.middleware(middleware));
}
