import type { MemoryEntry, Skill } from 'reverie';

/** What the stores held at one moment, for a before/after comparison. */
export interface StoreSnapshot {
  memories: readonly MemoryEntry[];
  skills: readonly Skill[];
}

/** Human lines saying what a cycle changed between two snapshots. Pure. */
export function describeChanges(before: StoreSnapshot, after: StoreSnapshot): string[] {
  return [
    ...diff('memory', before.memories, after.memories, (entry) => entry.id, describeMemory, memoryChange),
    ...diff('skill', before.skills, after.skills, (skill) => skill.name, (skill) => skill.name, skillChange),
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

function describeMemory(entry: MemoryEntry): string {
  return `(${entry.category}) ${entry.content}`;
}

function memoryChange(was: MemoryEntry, now: MemoryEntry): string | undefined {
  const changes: string[] = [];
  if (was.content !== now.content) changes.push('content rewritten');
  if (was.category !== now.category) changes.push(`moved from ${was.category}`);
  if (Math.abs(was.importance - now.importance) >= 0.005) changes.push(`importance ${was.importance.toFixed(2)} → ${now.importance.toFixed(2)}`);
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
