import type { MemoryEntry, Skill } from 'reverie';

/** What the stores held at one moment, for a before/after comparison. */
export interface StoreSnapshot {
  memories: readonly MemoryEntry[];
  skills: readonly Skill[];
}

/** Human lines saying what a cycle changed between two snapshots. Pure. */
export function describeChanges(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const notMerged = (entry: MemoryEntry) => !mergedAway(entry, before.memories, after.memories);
  return [
    ...describeMerges(before.memories, after.memories),
    ...diff(
      'memory',
      before.memories.filter(notMerged),
      after.memories.filter(notMerged),
      (entry) => entry.id,
      describeMemory,
      memoryChange,
    ),
    ...diff(
      'skill',
      before.skills,
      after.skills,
      (skill) => skill.name,
      (skill) => skill.name,
      skillChange,
    ),
  ];
}

function diff<T>(
  kind: string,
  before: readonly T[],
  after: readonly T[],
  key: (item: T) => string,
  describe: (item: T) => string,
  change: (was: T, now: T) => string | undefined,
): string[] {
  const old = new Map(before.map((item) => [key(item), item]));
  const current = new Map(after.map((item) => [key(item), item]));
  const lines: string[] = [];
  for (const [id, item] of old) if (!current.has(id)) lines.push(`- removed ${kind}: ${describe(item)}`);
  for (const [id, item] of current) {
    const was = old.get(id);
    if (!was) lines.push(`+ new ${kind}: ${describe(item)}`);
    else {
      const what = change(was, item);
      if (what) lines.push(`~ ${kind} ${describe(item)}: ${what}`);
    }
  }
  return lines;
}

/**
 * A merge replaces its sources with a new entry: a new entry whose words equal those of removed
 * ones is shown as one merge line rather than as removals and an addition.
 */
function describeMerges(before: readonly MemoryEntry[], after: readonly MemoryEntry[]): string[] {
  const live = new Set(after.map((entry) => entry.id));
  const existed = new Set(before.map((entry) => entry.id));
  const lines: string[] = [];
  for (const entry of after) {
    if (existed.has(entry.id)) continue;
    const sources = before.filter((old) => !live.has(old.id) && sameWords(old.content, entry.content));
    if (sources.length > 0)
      lines.push(`= merged ${sources.length} entries into: ${describeMemory(entry)} (reinforced ${entry.reinforcementCount}×)`);
  }
  return lines;
}

/** Whether `entry` is a merge source that went away or a merge result that replaced some. */
function mergedAway(entry: MemoryEntry, before: readonly MemoryEntry[], after: readonly MemoryEntry[]): boolean {
  const wasThere = before.some((old) => old.id === entry.id);
  const isThere = after.some((now) => now.id === entry.id);
  if (wasThere && !isThere) return after.some((now) => !before.some((old) => old.id === now.id) && sameWords(now.content, entry.content));
  if (!wasThere && isThere) return before.some((old) => !after.some((now) => now.id === old.id) && sameWords(old.content, entry.content));
  return false;
}

function sameWords(a: string, b: string): boolean {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return words(a) === words(b);
}

function describeMemory(entry: MemoryEntry): string {
  return `(${entry.category}) ${entry.content}`;
}

function memoryChange(was: MemoryEntry, now: MemoryEntry): string | undefined {
  const changes: string[] = [];
  if (was.content !== now.content) changes.push('content rewritten');
  if (was.category !== now.category) changes.push(`moved from ${was.category}`);
  if (Math.abs(was.importance - now.importance) >= 0.005)
    changes.push(`importance ${was.importance.toFixed(2)} → ${now.importance.toFixed(2)}`);
  if (was.reinforcementCount !== now.reinforcementCount) changes.push(`reinforced ${was.reinforcementCount}× → ${now.reinforcementCount}×`);
  return changes.length > 0 ? changes.join(', ') : undefined;
}

function skillChange(was: Skill, now: Skill): string | undefined {
  const changes: string[] = [];
  if (was.summary !== now.summary) changes.push('summary rewritten');
  if (was.content !== now.content) changes.push(`content ${was.content.length} → ${now.content.length} chars`);
  if (JSON.stringify(was.seeAlso) !== JSON.stringify(now.seeAlso)) changes.push(`see also: ${now.seeAlso.join(', ') || 'none'}`);
  return changes.length > 0 ? changes.join(', ') : undefined;
}
