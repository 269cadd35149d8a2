import {
  absorbedLineage,
  type DecayOptions,
  DEFAULT_DECAY_OPTIONS,
  DEFAULT_IMPORTANCE,
  type MemoryEntry,
  memoryEntrySchema,
  mergedLineage,
  mergeSubjectTimeMetadata,
  newId,
  supersede,
  supersedingLineage,
} from '@reverie/core';
import { type LineageStep } from '@reverie/core/internal';
import type { DreamOperation } from '@reverie/dream-state';
import type { ConsolidationItem } from './consolidation-item';
import type { Absorption } from './deletion-survivors';
import { mergeEntries, unionTags } from './merge-entries';
import { duplicateKey, duplicateKeyHash } from './normalise-content';
import type { CallReview, ProposedSave } from './review-reply';

export interface AssembledPlan {
  operations: DreamOperation[];
  notes: string[];
  refusals: string[];
  /** Entries this plan writes after the model saw what they come from: the cursor will not treat them as changed. */
  ownWrites: MemoryEntry[];
}

/**
 * Turns the pre-pass groups and the reviewed replies of every call into the run's operations
 * (SPEC D4, D5, B4, B7), saves first and deletes last:
 *
 * - a save identical to its single source (content, category, tag set) changes nothing and is
 *   dropped; a save whose normalised content and subject time equal another save's, or a live
 *   entry's that is not among its sources, is folded with it instead of leaving two copies;
 * - a single-source rewrite of one entry updates it in place (same id, temporal fields and
 *   metadata kept); every other save is a new entry with the D4 arithmetic of all the live
 *   entries behind its sources, and every one of them is deleted (exhaustive deletion); a save
 *   without sources is new: createdAt = lastSeenAt = now, reinforced once;
 * - outright deletions come reviewed (protections) and within the run's budget (`RunBudget`); a
 *   deleted duplicate whose facts an entry that stays holds (`deletionSurvivors`) is recorded in
 *   that entry's lineage, with its text as a passage (SPEC B10), and the survivor is saved so;
 * - a reviewed supersession (SPEC B9) ends the older entry where the newer one begins, dated by
 *   the host (`supersede`): both are saved in place, nothing deleted; one whose entries a save
 *   folds away is refused;
 * - a pre-pass group the model left alone is saved as merged by the pre-pass.
 *
 * SPEC B10: a merged entry's lineage names the entries it merged (origin `merge`, this run), a
 * superseding entry's gains the entry it superseded, a rewrite in place keeps the entry's own.
 */
export function assembleOperations(input: {
  items: readonly ConsolidationItem[];
  reviews: ReadonlyArray<CallReview & { absorbed?: readonly Absorption[] }>;
  /** Items the model step looked at (seeds and shown); their pre-pass saves count as own writes. */
  considered: ReadonlySet<string>;
  now: Date;
  /** SPEC D7: merged importance is the highest effective importance at `now` under this curve. */
  decay?: DecayOptions;
  /** SPEC B10: the run the lineage of merged and superseding entries names. */
  runId?: string;
}): AssembledPlan {
  const { items, now } = input;
  const decay = input.decay ?? DEFAULT_DECAY_OPTIONS;
  const notes: string[] = [];
  const refusals = input.reviews.flatMap((review) => review.refusals);
  const stamp = now.toISOString();
  const step: LineageStep = { at: stamp, runId: input.runId, pass: 'memory-consolidation' };
  const withMergedLineage = (entry: MemoryEntry, sources: readonly MemoryEntry[]): MemoryEntry => ({
    ...entry,
    lineage: mergedLineage(sources, entry.id, step),
  });

  // 1. Fold saves that would leave two live entries with the same normalised content.
  const proposed = input.reviews.flatMap((review) => review.saves);
  const saves: ProposedSave[] = proposed.map((save) => ({ ...save, sources: [...save.sources] }));
  /** Each reviewed save's copy here, and the copy another one was folded into. */
  const copyOf = new Map(proposed.map((save, index) => [save, saves[index]!]));
  const foldedInto = new Map<ProposedSave, ProposedSave>();
  const claimed = new Set(saves.flatMap((save) => save.sources.map((source) => source.id)));
  const saveKeys = saves.map((save) => duplicateKey({ content: save.content, metadata: subjectOf(save) }));
  // The live items whose key a save has (the last one of each key), without keeping every item's key.
  const wanted = new Set(saveKeys.filter((key) => key !== undefined));
  const wantedHashes = new Set([...wanted].map(duplicateKeyHash));
  const liveByKey = new Map<string, ConsolidationItem>();
  for (const item of items) {
    if (item.keyHash === undefined || !wantedHashes.has(item.keyHash)) continue;
    const key = duplicateKey(item.view)!;
    if (wanted.has(key)) liveByKey.set(key, item);
  }
  const saveByKey = new Map<string, ProposedSave>();
  const folded: ProposedSave[] = [];
  for (const [index, save] of saves.entries()) {
    const key = saveKeys[index];
    const twin = key === undefined ? undefined : saveByKey.get(key);
    if (twin) {
      for (const source of save.sources) if (!twin.sources.includes(source)) twin.sources.push(source);
      twin.tags = unionTags(twin.tags, save.tags);
      foldedInto.set(save, twin);
      notes.push('two saves with the same content folded into one');
      continue;
    }
    const live = key === undefined ? undefined : liveByKey.get(key);
    if (live && !claimed.has(live.id)) {
      save.sources.push(live);
      claimed.add(live.id);
      notes.push(`a save with the same content as ${live.id} was folded with it`);
    }
    if (key !== undefined) saveByKey.set(key, save);
    folded.push(save);
  }

  // 2. Drop saves that change nothing: the single source of nothing else, rewritten identically.
  const uses = new Map<string, number>();
  for (const save of folded) for (const source of save.sources) uses.set(source.id, (uses.get(source.id) ?? 0) + 1);
  const soleSource = (save: ProposedSave) => {
    const [only] = save.sources;
    return save.sources.length === 1 && only !== undefined && uses.get(only.id) === 1 ? only : undefined;
  };
  const kept = folded.filter((save) => !isNoOp(save, soleSource(save)));
  if (kept.length < folded.length) notes.push(`${folded.length - kept.length} rewrite(s) identical to their entry ignored`);
  const consumed = new Set(kept.flatMap((save) => save.sources.map((source) => source.id)));

  // 3. Outright deletions the reviews let through (protected items were refused there).
  const deleted = new Map<string, ConsolidationItem>();
  for (const review of input.reviews) for (const item of review.deletions) if (!consumed.has(item.id)) deleted.set(item.id, item);
  const absorbInto = absorptionTargets(input.reviews, { copyOf, foldedInto, kept, deleted });
  /** The id of the entry each absorbed deletion's facts went to (for the deletion's reason). */
  const survivorOf = new Map<string, string>();
  const absorb = (entry: MemoryEntry, target: ProposedSave | string): MemoryEntry => {
    const absorbed = absorbInto.get(target);
    if (!absorbed) return entry;
    absorbInto.delete(target);
    for (const item of absorbed) survivorOf.set(item.id, entry.id);
    return {
      ...entry,
      lineage: absorbedLineage(
        entry,
        absorbed.flatMap((item) => item.members),
        step,
      ),
    };
  };

  // 4. Operations.
  const saveOps: DreamOperation[] = [];
  const deleteOps: DreamOperation[] = [];
  const ownWrites: MemoryEntry[] = [];
  const deleteMembers = (item: ConsolidationItem, reason: string) => {
    for (const member of item.members) deleteOps.push({ op: 'memory.delete', id: member.id, expectUpdatedAt: member.updatedAt, reason });
  };

  let groups = 0;
  for (const item of items) {
    if (!item.merged || consumed.has(item.id) || deleted.has(item.id)) continue;
    groups++;
    const merged = absorb(withMergedLineage(item.merged, item.members), item.id);
    saveOps.push({
      op: 'memory.save',
      entry: merged,
      expectUpdatedAt: null,
      reason: `pre-pass: ${item.members.length} duplicates merged (${item.members.map((member) => member.id).join(', ')})`,
    });
    deleteMembers(item, `pre-pass: duplicate merged into ${item.merged.id}`);
    if (input.considered.has(item.id)) ownWrites.push(merged);
  }
  if (groups > 0) notes.push(`pre-pass: ${groups} group(s) of duplicates merged by the host`);

  const replaced = new Set<string>();
  for (const save of kept) {
    const only = soleSource(save);
    if (only && !only.merged) {
      const entry = absorb({ ...only.view, content: save.content, category: save.category, tags: save.tags, updatedAt: stamp }, save);
      saveOps.push({ op: 'memory.save', entry, expectUpdatedAt: only.view.updatedAt, reason: `consolidation: ${only.id} rewritten` });
      ownWrites.push(entry);
      continue;
    }
    const entry =
      save.sources.length === 0
        ? newEntry(save, step)
        : absorb(
            withMergedLineage(
              mergeEntries(
                save.sources.flatMap((source) => source.members),
                { id: newId(), content: save.content, category: save.category, tags: save.tags, updatedAt: stamp, importanceAt: now },
                decay,
              ),
              save.sources.flatMap((source) => source.members),
            ),
            save,
          );
    const reason =
      save.sources.length === 0
        ? 'consolidation: new entry from correction feedback'
        : `consolidation: merged ${save.sources.map((source) => source.id).join(', ')}`;
    saveOps.push({ op: 'memory.save', entry, expectUpdatedAt: null, reason });
    ownWrites.push(entry);
    for (const source of save.sources) {
      if (replaced.has(source.id)) continue;
      replaced.add(source.id);
      deleteMembers(source, `consolidation: replaced by ${entry.id}`);
    }
  }

  // 5. Supersessions (SPEC B9): the host dates each change (`supersede`); one save per entry touched.
  const dated = new Map<string, { item: ConsolidationItem; entry: MemoryEntry; reasons: string[] }>();
  const current = (item: ConsolidationItem) => dated.get(item.id)?.entry ?? item.view;
  let supersessions = 0;
  for (const review of input.reviews) {
    for (const { older, newer } of review.supersessions) {
      const gone = [older, newer].find((item) => consumed.has(item.id) || deleted.has(item.id));
      if (gone) {
        refusals.push(`supersession ${older.id} → ${newer.id} refused: ${gone.id} is folded into a save of the same run`);
        continue;
      }
      const result = supersede(current(older), current(newer));
      if (!memoryEntrySchema.safeParse(result.older).success || !memoryEntrySchema.safeParse(result.newer).success) {
        refusals.push(
          `supersession ${older.id} → ${newer.id} refused: the dates it needs (${result.change.at}) do not fit the validity the entries already have`,
        );
        continue;
      }
      const reason = `${older.id} superseded by ${newer.id} from ${result.change.at} (${result.change.rule})`;
      const successor = { ...result.newer, lineage: supersedingLineage(result.newer, result.older, step) };
      for (const [item, entry] of [
        [older, result.older],
        [newer, successor],
      ] as const) {
        const reasons = dated.get(item.id)?.reasons ?? [];
        dated.set(item.id, { item, entry, reasons: [...reasons, reason] });
      }
      supersessions++;
    }
  }
  for (const { item, entry, reasons } of dated.values()) {
    const written = absorb({ ...entry, updatedAt: stamp }, item.id);
    saveOps.push({
      op: 'memory.save',
      entry: written,
      expectUpdatedAt: item.view.updatedAt,
      reason: `consolidation: ${[...new Set(reasons)].join('; ')}`,
    });
    ownWrites.push(written);
  }
  if (supersessions > 0) notes.push(`${supersessions} fact(s) superseded by a newer one (kept, out of current recall)`);

  // 6. Survivors the run leaves as they were record the duplicates deleted beside them (SPEC B10).
  const untouched = new Map<string, ConsolidationItem>();
  for (const item of items) if (absorbInto.has(item.id) && !item.merged) untouched.set(item.id, item);
  for (const item of untouched.values()) {
    const absorbed = absorbInto.get(item.id)!.map((deletedItem) => deletedItem.id);
    const written = absorb({ ...item.view, updatedAt: stamp }, item.id);
    saveOps.push({
      op: 'memory.save',
      entry: written,
      expectUpdatedAt: item.view.updatedAt,
      reason: `consolidation: ${item.id} holds the facts of ${absorbed.join(', ')}, deleted as its duplicate(s)`,
    });
    ownWrites.push(written);
  }
  for (const item of deleted.values()) {
    const survivor = survivorOf.get(item.id);
    deleteMembers(
      item,
      survivor === undefined
        ? 'consolidation: deleted by the model as noise or superseded'
        : `consolidation: deleted by the model as a duplicate of ${survivor}, which records it in its lineage`,
    );
  }
  if (survivorOf.size > 0)
    notes.push(`${survivorOf.size} deleted duplicate(s) recorded in the lineage of the entry that holds their facts`);

  return { operations: [...saveOps, ...deleteOps], notes, refusals, ownWrites };
}

/**
 * Where each absorbed deletion goes (see `deletionSurvivors`): the save it named (or the save
 * that save was folded into; a dropped no-op rewrite's entry, which stays), else the shown
 * entry — or the save that consumed it in another call. A deletion another save consumed, or one
 * whose survivor is itself deleted, records nothing. Pure.
 */
function absorptionTargets(
  reviews: ReadonlyArray<{ absorbed?: readonly Absorption[] }>,
  plan: {
    copyOf: ReadonlyMap<ProposedSave, ProposedSave>;
    foldedInto: ReadonlyMap<ProposedSave, ProposedSave>;
    kept: readonly ProposedSave[];
    deleted: ReadonlyMap<string, ConsolidationItem>;
  },
): Map<ProposedSave | string, ConsolidationItem[]> {
  const kept = new Set(plan.kept);
  const consumerOf = new Map<string, ProposedSave>();
  for (const save of plan.kept) for (const source of save.sources) if (!consumerOf.has(source.id)) consumerOf.set(source.id, save);
  const targets = new Map<ProposedSave | string, ConsolidationItem[]>();
  for (const { deleted, into } of reviews.flatMap((review) => review.absorbed ?? [])) {
    if (plan.deleted.get(deleted.id) !== deleted) continue;
    let target: ProposedSave | string | undefined;
    if ('save' in into) {
      const copy = plan.copyOf.get(into.save);
      const save = copy === undefined ? undefined : (plan.foldedInto.get(copy) ?? copy);
      target = save !== undefined && kept.has(save) ? save : save?.sources[0]?.id;
    } else target = into.item.id;
    if (typeof target === 'string') target = plan.deleted.has(target) ? undefined : (consumerOf.get(target) ?? target);
    if (target !== undefined) targets.set(target, [...(targets.get(target) ?? []), deleted]);
  }
  return targets;
}

function isNoOp(save: ProposedSave, only: ConsolidationItem | undefined): boolean {
  if (!only) return false;
  const view = only.view;
  return (
    save.content === view.content &&
    save.category === view.category &&
    save.tags.length === new Set(view.tags).size &&
    save.tags.every((tag) => view.tags.includes(tag))
  );
}

/** The subject time a save will carry: its sources' merged subject time (none for a new entry). */
function subjectOf(save: ProposedSave): Record<string, string> {
  return mergeSubjectTimeMetadata(save.sources.map((source) => source.view.metadata));
}

/** A save without sources: written from the user's correction feedback (SPEC B10: its origin says so). */
function newEntry(save: ProposedSave, step: LineageStep): MemoryEntry {
  const stamp = step.at;
  return {
    id: newId(),
    content: save.content,
    category: save.category,
    tags: save.tags,
    createdAt: stamp,
    updatedAt: stamp,
    lastSeenAt: stamp,
    reinforcementCount: 1,
    importance: DEFAULT_IMPORTANCE,
    metadata: {},
    lineage: {
      origin: {
        kind: 'feedback',
        at: stamp,
        ...(step.runId === undefined ? {} : { runId: step.runId }),
        ...(step.pass === undefined ? {} : { pass: step.pass }),
      },
    },
  };
}
