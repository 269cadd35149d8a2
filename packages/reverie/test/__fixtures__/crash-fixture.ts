import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createReverie, type MemoryEntry, type Skill } from 'reverie';

const DAY = 86_400_000;
const BASE = Date.parse('2026-03-01T08:00:00.000Z');
const at = (day: number) => new Date(BASE + day * DAY).toISOString();

export interface CrashFixtureOptions {
  /** Varies every id, text and date, so seeds give different data directories. */
  seed: number;
  /** How many of each kind: exact duplicate pairs, near-duplicate pairs, skill pairs. */
  pairs: number;
  /** Near-duplicate pairs filed under `contested` (the agent of the concurrency test rewrites them). */
  contested?: number;
}

/**
 * Writes a data directory through the public API: exact duplicates (merged by the host's
 * deterministic pre-pass), near-duplicates marked `topic-<n>` (merged by the scripted model of
 * `dream-model.ts`), unrelated entries, pairs of overlapping skills, and two sessions in the
 * conversation log (a trip for episode-extraction, a preference for preference-inference).
 */
export async function seedCrashFixture(dataPath: string, options: CrashFixtureOptions): Promise<void> {
  const reverie = createReverie({ dataPath }).withMemory().withSkills().withConversationLog().build();
  const memory = reverie.memory!;
  const { seed, pairs } = options;
  for (let i = 0; i < pairs; i++) {
    const day = (seed * 7 + i * 3) % 40;
    const exact = `The locker code of the user is ${seed}${i}47, kept in drawer ${i}.`;
    await memory.save({ content: exact, category: 'facts', createdAt: at(day), lastSeenAt: at(day), importance: 0.4 });
    await memory.save({
      content: exact,
      category: 'facts',
      createdAt: at(day + 5),
      lastSeenAt: at(day + 9),
      importance: 0.6,
      tags: ['home'],
    });

    const topic = seed * 100 + i;
    const category = i < (options.contested ?? 0) ? 'contested' : 'pets';
    await memory.save({
      content: `topic-${topic}: the user keeps a cat named Miso${i} at home in Porto.`,
      category,
      createdAt: at(day + 1),
      lastSeenAt: at(day + 2),
    });
    await memory.save({
      content: `topic-${topic}: at home in Porto the user has a cat called Miso${i}.`,
      category,
      createdAt: at(day + 3),
      lastSeenAt: at(day + 4),
      reinforcementCount: 2,
      tags: ['cat'],
    });
    await memory.save({
      content: `The user went hiking in the Serra ${seed}-${i} on a rainy weekend.`,
      category: 'episodes',
      createdAt: at(day + 2),
      lastSeenAt: at(day + 2),
    });

    await reverie.skills!.save({
      name: `howto/pair${i}-a`,
      summary: `Pair ${i}, first half.`,
      content: `howto howto/pair${i}-a step: open tool ${seed}-${i} and press start.`,
    });
    await reverie.skills!.save({
      name: `howto/pair${i}-b`,
      summary: `Pair ${i}, second half.`,
      content: `howto howto/pair${i}-b step: check result ${seed}-${i} and save it.`,
    });
  }
  const log = reverie.conversationLog!;
  await log.append({
    sessionId: `chat-${seed}-1`,
    role: 'user',
    content: `I came back from my trip to Madeira${seed} yesterday. Please always answer in bullet points.`,
  });
  await log.append({ sessionId: `chat-${seed}-1`, role: 'assistant', content: 'Welcome back. Noted.' });
  await log.append({ sessionId: `chat-${seed}-2`, role: 'user', content: 'Again: bullet points, always, I find them easier to read.' });
  await log.append({ sessionId: `chat-${seed}-2`, role: 'assistant', content: 'Understood.' });
  await reverie.close();
}

/** What undo must give back exactly: every field of every entry but `updatedAt`. */
export type MemoryImage = Record<string, Omit<MemoryEntry, 'updatedAt'>>;
export type SkillImage = Record<string, Pick<Skill, 'name' | 'summary' | 'content' | 'seeAlso' | 'createdAt'>>;

export function memoryImage(entries: readonly MemoryEntry[]): MemoryImage {
  return Object.fromEntries(
    entries.map(({ id, content, category, tags, importance, reinforcementCount, createdAt, lastSeenAt, metadata }) => [
      id,
      { id, content, category, tags, importance, reinforcementCount, createdAt, lastSeenAt, metadata },
    ]),
  );
}

export function skillImage(skills: readonly Skill[]): SkillImage {
  return Object.fromEntries(
    skills.map(({ name, summary, content, seeAlso, createdAt }) => [name, { name, summary, content, seeAlso, createdAt }]),
  );
}

/**
 * Problems with the files of a data directory: a `.json` file that does not parse, or a
 * `.jsonl` line that does not parse — except a torn last line in the files whose readers skip
 * one (`tornLastLineOk` says which, by path relative to the data directory).
 */
export function unreadableFiles(dataPath: string, tornLastLineOk: (relative: string) => boolean): string[] {
  const problems: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const relative = path.slice(dataPath.length + 1);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      if (name.endsWith('.tmp')) continue;
      if (name.endsWith('.json')) {
        try {
          JSON.parse(readFileSync(path, 'utf8'));
        } catch (error) {
          problems.push(`${relative}: ${(error as Error).message}`);
        }
      } else if (name.endsWith('.jsonl')) {
        const lines = readFileSync(path, 'utf8').split('\n');
        const last = lines.length - 1;
        lines.forEach((line, index) => {
          if (!line.trim()) return;
          try {
            JSON.parse(line);
          } catch {
            // A line without its newline is the torn tail of an append the kill cut short.
            if (!(index === last && tornLastLineOk(relative))) problems.push(`${relative}:${index + 1}: not JSON`);
          }
        });
      }
    }
  };
  walk(dataPath);
  return problems;
}
