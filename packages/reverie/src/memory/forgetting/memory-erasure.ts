import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { basename, relative, sep } from 'node:path';
import { type ILongTermMemory, type MemoryEntry, ReverieError } from '@reverie/core';
import { type DreamStateLock, holdingLock } from '@reverie/dream-state';
import { isSystemCategory } from '@reverie/core/internal';
import { type ErasedPlace, eraseInFiles, type ErasureWalk, filesUnder, isTextFile } from './erase-in-files';
import { type ErasureTables, eraseInTables } from './erase-in-tables';
import { erasureNeedles, holdsNeedle } from './erasure-needles';
import {
  FORGOTTEN_CATEGORY,
  type ForgottenRecord,
  forgottenRecord,
  forgottenRecordDraft,
  parseForgottenEntry,
  statesForgottenFact,
} from './forgotten-facts';

/** What an erasure did (SPEC B14, `mode: 'erase'`): found where, removed or rewritten, and the places checked. */
export interface ErasureReceipt {
  mode: 'erase';
  /** The entries erased, by id and category (never their text): the selected ones and those stating the same text. */
  forgotten: Array<{ id: string; category: string }>;
  /** Ids the selector named that no entry has. */
  notFound: string[];
  /** Always empty: an erasure does not stop at an entry that changed meanwhile. */
  changed: string[];
  /** How many entries were looked at. */
  checked: number;
  /** Facts recorded (as keyed hashes) in the tombstone, the `_system/forgotten` entry left behind. */
  factsRecorded: number;
  /** The tombstone's id; absent when nothing matched. */
  tombstone?: string;
  /** Entries kept whose lineage named an erased entry: the ancestor and its excerpt are gone from it. */
  rewritten: string[];
  /** Every file (relative to the data directory) or table where the text was, and what was done there. */
  places: ErasedPlace[];
  /** What was read: the memory entries, how many files under the data directory, how many tables of the scope. */
  checkedPlaces: { entries: number; files: number; tables: number };
  /** Dream runs whose records held the text and were rewritten: `dreams.undo` refuses them from now on. */
  runsNoLongerUndoable: string[];
}

/** What an erasure works on: the instance's memory store, its data directory, and its PostgreSQL tables when it has them. */
export interface ErasureServices {
  memory: ILongTermMemory;
  now: () => Date;
  dataPath: string;
  /** False on PostgreSQL, whose data directory is shared by every scope and holds only directive files. */
  files: boolean;
  /** True for the instance of the default scope, whose data directory holds other scopes' folders under `scopes/`. */
  rootScope: boolean;
  tables?: ErasureTables | undefined;
  /** The scope's dream lock (SPEC O3), held throughout, so that no dream run copies the text while it is being erased (LOCK_HELD). */
  lock: DreamStateLock;
}

/**
 * SPEC B14: the erasing strength of `forget`. Every copy of the selected entries' text goes: the
 * entries (and any other entry holding that text, or merged from one of them and still stating
 * its fact), lineage excerpts in the entries kept, and every record holding it in the files under
 * the data directory (run archives, plans, artifacts, logs, journals, recall events, quarantine)
 * or in the scope's rows of Reverie's tables. What is left is the tombstone, keyed hashes only.
 *
 * Crash safety: the tombstone is saved first and carries the intent (the ids, never the text, and
 * the phase). While the phase is `scrub` the entries are still there and are where the text to look
 * for is read from, so a walk interrupted by a crash is simply walked again; once every other place
 * is done the phase becomes `delete`, the entries are deleted, and the intent is cleared.
 * `recover()` (and `dreams.recover()`) finishes an erasure a crash left.
 */
export class MemoryErasure {
  constructor(private readonly services: ErasureServices) {}

  /** Erases `selected` (and what states the same) and returns the receipt. `asked`: the text or subject asked for, recorded as a fact too. */
  async erase(selected: MemoryEntry[], asked: string[], notFound: string[], checked: number): Promise<ErasureReceipt> {
    const { memory, now } = this.services;
    const all = (await memory.list()).filter((entry) => !isSystemCategory(entry.category));
    if (selected.length === 0) {
      const checkedPlaces = { entries: all.length, files: 0, tables: 0 };
      return {
        mode: 'erase',
        forgotten: [],
        notFound,
        changed: [],
        checked,
        factsRecorded: 0,
        rewritten: [],
        places: [],
        checkedPlaces,
        runsNoLongerUndoable: [],
      };
    }
    const salt = randomBytes(16).toString('hex');
    const chosen = new Map(selected.map((entry) => [entry.id, entry]));
    const first = forgottenRecord([...selected.map((entry) => entry.content), ...asked], salt);
    // The closure: an entry holding an erased text, or merged from an erased entry and still stating its fact, goes too.
    for (let grew = true; grew; ) {
      grew = false;
      const needles = erasureNeedles([...chosen.values()].map((entry) => entry.content));
      for (const entry of all) {
        if (chosen.has(entry.id)) continue;
        const descends = (entry.lineage?.ancestors ?? []).some((ancestor) => chosen.has(ancestor.id));
        // A merge of an erased entry is rewritten from the sources it keeps whole when it can be (SPEC B14).
        if (descends && withoutErasedSources(entry, needles, first) !== undefined) continue;
        if (holdsNeedle(entry.content, needles) || (descends && statesForgottenFact(first, entry.content))) {
          chosen.set(entry.id, entry);
          grew = true;
        }
      }
    }
    const entries = [...chosen.values()];
    const record: ForgottenRecord = {
      ...forgottenRecord([...entries.map((entry) => entry.content), ...asked], salt),
      erasing: { ids: entries.map((entry) => entry.id), phase: 'scrub' },
    };
    const receipt = await holdingLock(this.services.lock, async () => {
      const tombstone = await memory.save(forgottenRecordDraft(record, now()));
      await crashTestPoint('erase.intent-saved');
      return this.finish(tombstone);
    });
    return {
      ...receipt,
      forgotten: entries.map(({ id, category }) => ({ id, category })),
      notFound,
      checked,
      factsRecorded: record.facts.length,
    };
  }

  /** Finishes every erasure a crash interrupted (a tombstone still carrying its intent). Returns how many. */
  async recover(): Promise<number> {
    const pending = (await this.services.memory.list({ category: FORGOTTEN_CATEGORY })).filter(
      (entry) => parseForgottenEntry(entry)?.erasing !== undefined,
    );
    if (pending.length > 0)
      await holdingLock(this.services.lock, async () => {
        for (const { id } of pending) {
          // Read again under the lock: another process may have finished it meanwhile.
          const fresh = await this.services.memory.get(id);
          if (fresh && parseForgottenEntry(fresh)?.erasing) await this.finish(fresh);
        }
      });
    return pending.length;
  }

  /** The dream runs an erasure rewrote, which undo must refuse. */
  async erasedRuns(): Promise<Set<string>> {
    const records = (await this.services.memory.list({ category: FORGOTTEN_CATEGORY })).flatMap(
      (entry) => parseForgottenEntry(entry) ?? [],
    );
    return new Set(records.flatMap((record) => record.erasedRuns ?? []));
  }

  /** Throws CONFLICT when `runId` is a run an erasure rewrote. */
  async refuseErasedRun(runId: string): Promise<void> {
    if ((await this.erasedRuns()).has(runId)) {
      throw new ReverieError(
        'CONFLICT',
        `Dream run ${runId} touched data that was since erased at the user's request (memory.forget with mode 'erase'); its records were rewritten without it, so it cannot be undone.`,
      );
    }
  }

  /** Runs the erasure a tombstone's intent describes, from the phase it reached, and clears the intent. */
  private async finish(tombstone: MemoryEntry): Promise<Omit<ErasureReceipt, 'forgotten' | 'notFound' | 'checked' | 'factsRecorded'>> {
    const { memory, dataPath, rootScope, tables, files: onFiles } = this.services;
    let record = parseForgottenEntry(tombstone);
    if (!record?.erasing) throw new ReverieError('INTERNAL', `Tombstone ${tombstone.id} carries no erasure to finish.`);
    const ids = new Set(record.erasing.ids);
    const all = await memory.list();
    const present = all.filter((entry) => ids.has(entry.id));
    const needles = erasureNeedles(present.map((entry) => entry.content));
    const receipt = {
      mode: 'erase' as const,
      changed: [],
      tombstone: tombstone.id,
      rewritten: [] as string[],
      places: [] as ErasedPlace[],
      checkedPlaces: { entries: all.length, files: 0, tables: 0 },
      runsNoLongerUndoable: record.erasedRuns ?? [],
    };
    let current = tombstone;
    const save = async (next: ForgottenRecord) => {
      current = await memory.save({ ...current, content: JSON.stringify(next) });
      record = next;
    };
    if (record.erasing!.phase === 'scrub') {
      // Lineage of the entries kept: the erased ancestors and their excerpts leave it.
      for (const entry of all) {
        const ancestors = entry.lineage?.ancestors ?? [];
        if (ids.has(entry.id) || isSystemCategory(entry.category) || !ancestors.some((ancestor) => ids.has(ancestor.id))) continue;
        const kept = ancestors.filter((ancestor) => !ids.has(ancestor.id) && !holdsNeedle(ancestor.excerpt, needles));
        const passages = entry.lineage!.passages?.filter((passage) => !holdsNeedle(passage, needles));
        const content =
          holdsNeedle(entry.content, needles) || statesForgottenFact(record, entry.content)
            ? withoutErasedSources(entry, needles, record)
            : undefined;
        await memory.save({
          ...entry,
          ...(content === undefined ? {} : { content }),
          lineage: { ...entry.lineage!, ancestors: kept, passages: passages && passages.length > 0 ? passages : undefined },
        });
        receipt.rewritten.push(entry.id);
        await crashTestPoint('erase.lineage-rewritten');
      }
      const markRuns = async (runs: string[]) => {
        const known = new Set(record!.erasedRuns ?? []);
        if (runs.every((run) => known.has(run))) return;
        await save({ ...record!, erasedRuns: [...known, ...runs.filter((run) => !known.has(run))] });
      };
      const files = onFiles
        ? await eraseInFiles(dataPath, needles, {
            skip: (place) => skipFile(place, ids),
            skipScopes: rootScope,
            beforeWrite: markRuns,
            afterEach: () => crashTestPoint('erase.file'),
          })
        : { places: [], checked: 0, runs: [] };
      const rows: ErasureWalk = tables
        ? await eraseInTables(tables, needles, {
            skip: (table, row) => table === 'reverie_memory' && ids.has(String(row.id)),
            beforeWrite: markRuns,
          })
        : { places: [], checked: 0, runs: [] };
      receipt.places.push(...files.places, ...rows.places);
      receipt.checkedPlaces.files = files.checked;
      receipt.checkedPlaces.tables = rows.checked;
      await crashTestPoint('erase.places-scrubbed');
      await save({ ...record, erasing: { ids: [...ids], phase: 'delete' } });
    }
    for (const id of ids) {
      await crashTestPoint('erase.deleting');
      if (await memory.delete(id)) receipt.places.push({ place: `memory entry ${id}`, action: 'removed' });
    }
    await crashTestPoint('erase.entries-deleted');
    // The memory store's snapshot is a cache of every entry's text, and its vector files (the vector
    // log, the matrix) are caches of the entries' vectors: each that still holds an erased entry
    // goes, and the store writes them again (computing the vectors it misses at the next open).
    if (onFiles) {
      const named = [...ids].map((id) => Buffer.from(id, 'latin1'));
      for (const file of await filesUnder(dataPath, rootScope)) {
        const snapshot = basename(file) === '.snapshot.bin';
        if (!snapshot && isTextFile(file)) continue;
        const bytes = snapshot ? undefined : await readFile(file);
        if (snapshot || named.some((id) => bytes!.includes(id))) {
          await rm(file, { force: true });
          receipt.places.push({ place: relative(dataPath, file), action: 'removed' });
        }
      }
    }
    await crashTestPoint('erase.snapshots-removed');
    const { erasing: _done, ...whole } = record;
    await save(whole);
    receipt.runsNoLongerUndoable = whole.erasedRuns ?? [];
    return receipt;
  }
}

/** Files the walk leaves to the memory store: the erased entries' own files (deleted through it, last) and its snapshots. */
function skipFile(place: string, ids: ReadonlySet<string>): boolean {
  if (basename(place) === '.snapshot.bin') return true;
  return place.startsWith(`memory${sep}`) && place.endsWith('.json') && ids.has(basename(place, '.json'));
}

/** The dream engine's named crash points (SPEC B2), loaded only when an erasure runs: a kill test stops the process at each. */
async function crashTestPoint(name: string): Promise<void> {
  const { faultPoint } = await import('@reverie/dream/internal');
  faultPoint(name);
}

/**
 * A merged entry rewritten without the erased sources: the text of the sources it keeps whole
 * (`lineage.passages`, SPEC B10), joined, when some remain and they neither hold an erased text
 * nor state an erased fact. Every fact of that text is a kept source's own, word for word, so the
 * rewrite passes the fact check by construction. Undefined when the entry cannot be rewritten so
 * (no passages, none left, or what is left still states the fact): it is then erased whole. Pure.
 */
export function withoutErasedSources(
  entry: MemoryEntry,
  needles: ReturnType<typeof erasureNeedles>,
  record: ForgottenRecord,
): string | undefined {
  const passages = entry.lineage?.passages ?? [];
  const remaining = passages.filter((passage) => !holdsNeedle(passage, needles));
  if (remaining.length === 0 || remaining.length === passages.length) return undefined;
  const content = remaining.join('\n');
  return holdsNeedle(content, needles) || statesForgottenFact(record, content) ? undefined : content;
}
