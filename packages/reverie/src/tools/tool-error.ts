import { isReverieError, type ReverieErrorCode } from '@reverie/core';
import { fileSystemError } from '@reverie/core/internal';

/** What a tool hands back instead of throwing. */
export interface ToolError {
  error: ReverieErrorCode;
  message: string;
}

/**
 * Runs a tool's work and turns any failure into a `{ error, message }` result the model can read:
 * a ReverieError (bad category, bad key, namespace violation, READ_ONLY, NO_SPACE…) keeps its code;
 * a file-system error gets its file-system code; anything else is `INTERNAL`. A tool never throws
 * into the model loop. `onUnexpected` records the failures that are not the caller's doing.
 */
export async function answerOrExplain<T>(work: () => Promise<T>, onUnexpected?: (error: unknown) => void): Promise<T | ToolError> {
  try {
    return await work();
  } catch (error) {
    if (isReverieError(error) && !error.code.startsWith('INVALID_') && error.code !== 'NAMESPACE_VIOLATION') onUnexpected?.(error);
    if (isReverieError(error)) return { error: error.code, message: error.message };
    onUnexpected?.(error);
    if (typeof (error as { code?: unknown } | null)?.code === 'string') {
      const mapped = fileSystemError(error, 'complete the tool call', String((error as { path?: unknown }).path ?? 'the data directory'));
      return { error: mapped.code, message: mapped.message };
    }
    return {
      error: 'INTERNAL',
      message: `The tool failed on the host's side (${error instanceof Error ? error.message : String(error)}); the call itself was fine. Carry on without it or retry later.`,
    };
  }
}
