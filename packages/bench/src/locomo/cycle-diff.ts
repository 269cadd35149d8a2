/**
 * pnpm --filter @reverie/bench locomo:cycle-diff [conversation…] — for each recorded dream cycle
 * (those `bench:locomo` replays, or only those of the conversations named), replays it and prints
 * every question whose evidence recall@10 changed, with where each evidence turn's entry ranked
 * before and after the cycle and what became of it: kept (and in which category), folded into a
 * merge (its sources and words), or gone; and which new entries (merges, episodes) rank above it.
 * A diagnosis aid: it reads LoCoMo from where `bench:locomo` does and prints its text.
 */
import type { MemoryEntry, MemorySearchResult } from '@reverie/core';
import { replayRecordedCycle } from './cycle-replay';
import { evidenceRecallAt } from './evidence-recall';
import { loadLocomo, locomoPath, locomoPresent, recordedCyclePaths } from './locomo-data';
import { entryEvidence } from './locomo-memory';

/** How deep each question's ranking is kept, to say where an entry fell to. */
const DEPTH = 40;

interface Phase {
  entries: Map<string, MemoryEntry>;
  ranked: Map<string, MemorySearchResult[]>;
  /** The entries that carry each evidence turn. */
  holders: Map<string, MemoryEntry[]>;
}

if (!locomoPresent()) {
  console.log(`locomo:cycle-diff: LoCoMo is not at ${locomoPath()}: nothing to replay.`);
  process.exit(0);
}
const conversations = loadLocomo(locomoPath());
const wanted = new Set(process.argv.slice(2).map(Number));

for (const folder of recordedCyclePaths()) {
  const phases = new Map<'before' | 'after', Phase>();
  let evidence: ReadonlyMap<string, readonly string[]> = new Map();
  const replay = await replayRecordedCycle(folder, {
    conversations,
    async inspect(phase, memory, evidenceById, conversation) {
      if (wanted.size > 0 && !wanted.has(conversation.index)) return;
      evidence = evidenceById;
      const entries = new Map((await memory.list()).map((entry) => [entry.id, entry]));
      const holders = new Map<string, MemoryEntry[]>();
      for (const entry of entries.values())
        for (const turn of entryEvidence(entry, evidenceById)) holders.set(turn, [...(holders.get(turn) ?? []), entry]);
      const ranked = new Map<string, MemorySearchResult[]>();
      for (const question of conversation.questions)
        ranked.set(question.id, await memory.search({ text: question.text, maxResults: DEPTH }));
      phases.set(phase, { entries, ranked, holders });
    },
  });
  const before = phases.get('before');
  const after = phases.get('after');
  if (!before || !after) continue;
  const conversation = replay.conversation;
  const words = (entry: MemoryEntry) => entry.content.split(/\s+/).length;
  const kind = (entry: MemoryEntry) =>
    before.entries.has(entry.id)
      ? 'kept'
      : (entry.lineage?.ancestors?.length ?? 0) > 0
        ? `merge of ${entry.lineage!.ancestors!.length}`
        : entry.category === 'episodes'
          ? 'episode'
          : 'new';
  const describe = (entry: MemoryEntry, phase: 'before' | 'after') =>
    `${entry.id.slice(0, 6)}${phase === 'after' ? ` ${kind(entry)}` : ''} in ${entry.category}, ${words(entry)} words: ${entry.content.length > 110 ? `${entry.content.slice(0, 110)}…` : entry.content}`;
  // Of the entries that carry a turn, the one ranked highest for the question (or the first).
  const holderOf = (phase: Phase, hits: readonly MemorySearchResult[], turn: string) => {
    const carrying = phase.holders.get(turn) ?? [];
    const position = (entry: MemoryEntry) => {
      const at = hits.findIndex((hit) => hit.entry.id === entry.id);
      return at < 0 ? Number.POSITIVE_INFINITY : at;
    };
    return [...carrying].sort((a, b) => position(a) - position(b))[0];
  };
  const rankOf = (hits: readonly MemorySearchResult[], id: string | undefined) => {
    const at = id === undefined ? -1 : hits.findIndex((hit) => hit.entry.id === id);
    return at < 0 ? `>${DEPTH}` : String(at + 1);
  };
  console.log(
    `\n## conversation ${conversation.index} (${folder}): recall@10 ${replay.recallBefore.at10.toFixed(3)} → ${replay.recallAfter.at10.toFixed(3)}`,
  );
  let gained = 0;
  let lost = 0;
  for (const question of conversation.questions) {
    const hitsBefore = before.ranked.get(question.id)!;
    const hitsAfter = after.ranked.get(question.id)!;
    const at10 = (hits: readonly MemorySearchResult[]) =>
      evidenceRecallAt(
        10,
        hits.map((hit) => entryEvidence(hit.entry, evidence)),
        question.evidence,
      );
    const then = at10(hitsBefore);
    const now = at10(hitsAfter);
    if (then === now) continue;
    if (now > then) gained += now - then;
    else lost += then - now;
    console.log(`\n${question.id} (category ${question.category}) ${then.toFixed(2)} → ${now.toFixed(2)}: ${question.text}`);
    for (const turn of question.evidence) {
      const was = holderOf(before, hitsBefore, turn);
      const is = holderOf(after, hitsAfter, turn);
      console.log(`  ${turn}: rank ${rankOf(hitsBefore, was?.id)} → ${rankOf(hitsAfter, is?.id)}`);
      if (!was && !is) continue;
      if (was) console.log(`    before ${describe(was, 'before')}`);
      console.log(`    after  ${is ? describe(is, 'after') : 'no entry holds it'}`);
      const position = is ? hitsAfter.findIndex((hit) => hit.entry.id === is.id) : -1;
      const above = hitsAfter.slice(0, position < 0 || position > 10 ? 10 : position).filter((hit) => !before.entries.has(hit.entry.id));
      if (is && above.length > 0)
        console.log(`    new above it in the top 10: ${above.map((hit) => `${hit.entry.id.slice(0, 6)} (${kind(hit.entry)})`).join(', ')}`);
    }
  }
  console.log(`\nquestions' recall@10 gained ${gained.toFixed(2)}, lost ${lost.toFixed(2)} (of ${conversation.questions.length})`);
}
