import { AsyncLocalStorage } from 'node:async_hooks';
import type { LanguageModelMiddleware } from 'ai';

const background = new AsyncLocalStorage<true>();

/**
 * True inside a model call Reverie makes for itself (a dream pass, a note expansion). Such a call
 * is no user turn: it must not mark the user active, get a turn's context, or be recorded in the
 * conversation (SPEC D16), even when the host passed a model wrapped with Reverie's middleware.
 */
export function isBackgroundCall(): boolean {
  return background.getStore() === true;
}

/** Middleware that runs every call of the model it wraps as a background call. */
export function backgroundCallMiddleware(): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    wrapGenerate: ({ doGenerate }) => background.run(true, doGenerate),
    wrapStream: ({ doStream }) => background.run(true, doStream),
  };
}
