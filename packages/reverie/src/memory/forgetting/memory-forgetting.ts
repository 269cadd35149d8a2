import type { ReverieTracing } from '../../telemetry/reverie-tracing';
import { memoryOperationSpan } from '../../telemetry/traced-memory';
import type { IClock, ILongTermMemory, MemoryEntry } from '@reverie/core';
import { isSystemCategory, refuseSystemCategory } from '@reverie/core/internal';
import type { CycleReport, HostOperations } from '@reverie/dream';
import type { DreamOperation } from '@reverie/dream-state';
import { type ForgetOptions, type ForgetSelector, parseForgetOptions, parseForgetSelector, selects } from './forget-selector';
import { forgottenRecord, forgottenRecordDraft } from './forgotten-facts';
import type { ErasureReceipt, MemoryErasure } from './memory-erasure';

/** The run name (trigger and pass) a forget is recorded under. */
export const FORGET_RUN = 'forget';

/** What a forget did (SPEC B14): a soft one's receipt, or an erasure's. */
export type ForgetReceipt = SoftForgetReceipt | ErasureReceipt;

/** What a soft forget did. */
export interface SoftForgetReceipt {
  mode: 'soft';
  /** The run that recorded it, to undo with `reverie.dreams.undo(runId)`; absent when nothing matched. */
  runId?: string;
  /** The entries taken out of memory, by id and category (never their text). */
  forgotten: Array<{ id: string; category: string }>;
  /** Ids the selector named that no entry has. */
  notFound: string[];
  /** Entries that changed while the forget ran, left as they are: forget them again. */
  changed: string[];
  /** How many entries were looked at (Reverie's own, under `_system/`, are never forgotten and not counted). */
  checked: number;
  /** Facts recorded (as keyed hashes) so that the dream cycle and fact extraction do not learn them again. */
  factsRecorded: number;
}

/** The engine call a forget is recorded through (`DreamEngine.applyOperations`). */
export interface ForgetEngine {
  applyOperations(request: HostOperations): Promise<CycleReport>;
}

/**
 * `reverie.memory.forget` (SPEC B14), soft: the selected entries leave memory in one run of the
 * dream engine (archived, journalled, undone with `dreams.undo(runId)`), and a `_system/forgotten`
 * record of keyed hashes of their terms (and of the `text` or `subject` asked for) is saved in the
 * same run, so that the dream cycle and fact extraction refuse to learn them again until the run
 * is undone.
 */
export class MemoryForgetting {
  constructor(
    private readonly services: {
      memory: ILongTermMemory;
      engine: ForgetEngine;
      clock: IClock;
      erasure: MemoryErasure;
      /** SPEC E3: a `delete_memory` span around each forget, with `storeId` as the store id. */
      tracing?: { spans: ReverieTracing; storeId: string } | undefined;
    },
  ) {}

  forget(selector: ForgetSelector, options?: { mode?: 'soft' }): Promise<SoftForgetReceipt>;
  forget(selector: ForgetSelector, options?: ForgetOptions): Promise<ForgetReceipt>;
  forget(selector: ForgetSelector, options?: ForgetOptions): Promise<ForgetReceipt> {
    const tracing = this.services.tracing;
    if (!tracing) return this.forgetNow(selector, options);
    return memoryOperationSpan(
      tracing.spans,
      tracing.storeId,
      'delete_memory',
      { 'reverie.memory.forget.mode': typeof options?.mode === 'string' ? options.mode : 'soft' },
      async (span) => {
        const receipt = await this.forgetNow(selector, options);
        span.setAttributes({
          'gen_ai.memory.record.ids': receipt.forgotten.map((entry) => entry.id),
          'gen_ai.memory.deleted.count': receipt.forgotten.length,
          ...('runId' in receipt && receipt.runId !== undefined ? { 'reverie.dream.run_id': receipt.runId } : {}),
        });
        return receipt;
      },
    );
  }

  private async forgetNow(selector: ForgetSelector, options?: ForgetOptions): Promise<ForgetReceipt> {
    const selected = parseForgetSelector(selector);
    const { mode } = parseForgetOptions(options);
    const { entries, checked, notFound } = await this.find(selected);
    const asked = 'text' in selected ? [selected.text] : 'subject' in selected ? [selected.subject] : [];
    if (mode === 'erase') return this.services.erasure.erase(entries, asked, notFound, checked);
    const receipt: SoftForgetReceipt = { mode, forgotten: [], notFound, changed: [], checked, factsRecorded: 0 };
    if (entries.length === 0) return receipt;
    const record = forgottenRecord([...entries.map((entry) => entry.content), ...asked]);
    const operations: DreamOperation[] = [
      {
        op: 'memory.save',
        entry: forgottenRecordDraft(record, this.services.clock.now()),
        expectUpdatedAt: null,
        reason: 'what was forgotten',
      },
      ...entries.map(
        (entry): DreamOperation => ({
          op: 'memory.delete',
          id: entry.id,
          expectUpdatedAt: entry.updatedAt,
          reason: 'forgotten at the user’s request',
        }),
      ),
    ];
    const report = await this.services.engine.applyOperations({
      trigger: FORGET_RUN,
      pass: FORGET_RUN,
      operations,
      itemsProcessed: checked,
      notes: [`${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} forgotten`],
    });
    const outcome = report.passes[0];
    const changed = new Set(outcome && outcome.status !== 'skipped' ? (outcome.conflicted ?? []) : []);
    receipt.runId = report.runId;
    receipt.changed = entries.filter((entry) => changed.has(`memory ${entry.id}`)).map((entry) => entry.id);
    receipt.forgotten = entries.filter((entry) => !changed.has(`memory ${entry.id}`)).map(({ id, category }) => ({ id, category }));
    receipt.factsRecorded = record.facts.length;
    return receipt;
  }

  /** The entries `selector` names, how many were looked at, and the ids named that do not exist. */
  private async find(selector: ForgetSelector): Promise<{ entries: MemoryEntry[]; checked: number; notFound: string[] }> {
    const { memory } = this.services;
    if ('ids' in selector) {
      const ids = [...new Set(selector.ids)];
      const found = await Promise.all(ids.map((id) => memory.get(id)));
      // Like delete: an entry under _system/ is Reverie's own (INVALID_CATEGORY), and nothing is forgotten.
      for (const entry of found) if (entry) refuseSystemCategory(entry.category);
      const entries = found.filter((entry): entry is MemoryEntry => entry !== undefined && selects(selector, entry));
      return { entries, checked: ids.length, notFound: ids.filter((_, index) => found[index] === undefined) };
    }
    const all = (await memory.list()).filter((entry) => !isSystemCategory(entry.category));
    return { entries: all.filter((entry) => selects(selector, entry)), checked: all.length, notFound: [] };
  }
}
