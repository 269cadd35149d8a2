import { detectInjection } from '@reverie/core';

/** A warning in the answer of a write: the text was stored as asked, and this is worth a look. */
export interface WriteWarning {
  code: 'LIKELY_INJECTION';
  message: string;
  /** What `detectInjection` recognised: "a chat-template token", "\"ignore previous instructions\""… */
  patterns: string[];
}

/**
 * SPEC B4: the warnings for text about to be stored. Text that reads like instructions to a
 * model (the patterns the dream passes refuse in a merge, `detectInjection`) is still saved — the
 * user's data is theirs — but the answer says so, and it comes back as untrusted data. Pure.
 */
export function injectionWarnings(content: string | undefined): { warnings?: WriteWarning[] } {
  if (content === undefined) return {};
  const patterns = detectInjection([], content);
  if (patterns.length === 0) return {};
  return {
    warnings: [
      {
        code: 'LIKELY_INJECTION',
        message: `The content reads like instructions to an AI (${patterns.join(', ')}). It was saved as given; it is answered as untrusted data and recall fences it, but check that it is what you meant to remember.`,
        patterns,
      },
    ],
  };
}
