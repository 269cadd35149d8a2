import type { MemoryEntry, WorkingMemoryEntry } from '@reverie/core';
import { fenceUntrusted } from '@reverie/core/internal';

/** What the profile section is, said before its fence (SPEC M11). */
export const PROFILE_TITLE =
  'What is known about the user: standing preferences and lessons (pinned long-term memory, shown on every turn; each line is [id] (category): content)';
/** What the session memory section is, said before its fence (SPEC M11). */
export const SESSION_MEMORY_TITLE =
  'Long-term memory recalled in this conversation, what bears on this message first (each line is [id] (category): content)';

/** First lines of the working-memory sections (SPEC M11). Values are never listed, only keys. */
export const INVENTORY_TITLES = {
  own: 'Your working memory, with keys only (load a value with get_from_working_memory, or look one up with search_working_memory):',
  patrol: 'Findings that patrol tasks left in working memory, keys only (load one with get_from_working_memory and its full key):',
  subagent:
    'Research outlines that subagents left in working memory (load an index with get_from_working_memory and its full key, then load the parts it points to):',
} as const;

const SECOND_MS = 1000;
const MINUTE_S = 60;
const HOUR_S = 60 * MINUTE_S;
const DAY_S = 24 * HOUR_S;

/**
 * Time left until expiry, compact and at the two most significant units: `45s`, `4m32s`,
 * `4h08m`, `2d03h`. Partial seconds are dropped; zero or less is `0s`.
 */
export function formatExpiry(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / SECOND_MS) : 0;
  if (total < MINUTE_S) return `${total}s`;
  if (total < HOUR_S) return `${Math.floor(total / MINUTE_S)}m${pad(total % MINUTE_S)}s`;
  if (total < DAY_S) return `${Math.floor(total / HOUR_S)}h${pad(Math.floor((total % HOUR_S) / MINUTE_S))}m`;
  return `${Math.floor(total / DAY_S)}d${pad(Math.floor((total % DAY_S) / HOUR_S))}h`;
}

/**
 * One entry as the model sees it: `- [<id>] (<category>): <content>`. Content is stored
 * (untrusted) text, so it is folded onto its one line and can never add lines of its own. Pure.
 */
export function renderMemoryLine(entry: Pick<MemoryEntry, 'id' | 'category' | 'content'>): string {
  return `- [${entry.id}] (${entry.category}): ${singleLine(entry.content)}`;
}

/**
 * A section of memory entries (the profile, the session memory): `title` and the untrusted-data
 * note on one line, then the entries' lines, in the order given, inside a fence they cannot close
 * (`fenceUntrusted`, SPEC B4): what memory says is data for the model, never instructions.
 * Undefined when there is nothing to show. Pure.
 */
export function renderMemorySection(
  title: string,
  entries: ReadonlyArray<Pick<MemoryEntry, 'id' | 'category' | 'content'>>,
): string | undefined {
  if (entries.length === 0) return undefined;
  return fenceUntrusted(title, entries.map(renderMemoryLine).join('\n'));
}

/**
 * A working-memory inventory: `title`, then `- <key>: expires in <time>, category: <c>, tags: <a, b>`
 * per entry (category and tags only when present). Values are never rendered. Undefined when
 * there is nothing to show.
 */
export function renderInventory(
  title: string,
  entries: ReadonlyArray<Pick<WorkingMemoryEntry, 'key' | 'expiresAt' | 'category' | 'tags'>>,
  now: Date,
): string | undefined {
  if (entries.length === 0) return undefined;
  const lines = entries.map((entry) => {
    const parts = [`expires in ${formatExpiry(new Date(entry.expiresAt).getTime() - now.getTime())}`];
    if (entry.category !== undefined) parts.push(`category: ${entry.category}`);
    if (entry.tags.length > 0) parts.push(`tags: ${entry.tags.map(singleLine).join(', ')}`);
    return `- ${entry.key}: ${parts.join(', ')}`;
  });
  return [title, ...lines].join('\n');
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
