import { isReverieError, type ReverieErrorCode } from '@reverie/core';

/** What a tool hands back instead of throwing when the model can fix the call itself. */
export interface ToolError {
  error: ReverieErrorCode;
  message: string;
}

/**
 * Runs a tool's work and turns a ReverieError (bad category, bad key, namespace violation…) into
 * a `{ error, message }` result the model can read and correct. Anything else is a fault of the
 * host, not of the call, and is rethrown.
 */
export async function answerOrExplain<T>(work: () => Promise<T>): Promise<T | ToolError> {
  try {
    return await work();
  } catch (error) {
    if (isReverieError(error)) return { error: error.code, message: error.message };
    throw error;
  }
}
