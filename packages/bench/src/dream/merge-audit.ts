import type { MemoryEntry } from '@reverie/core';
import { type CycleReport } from '@reverie/dream';
import type { Origin } from './planted-memory';
import { RunFolder } from '@reverie/file-store/internal';

const PASS = 'memory-consolidation';
/** Delete reasons written by the pass: `consolidation: replaced by <id>`, `pre-pass: duplicate merged into <id>`. */
const REPLACED = /(?:replaced by|merged into) ([0-9a-f]{12})/;

/** One entry a run wrote from two or more sources. */
export interface MergeRecord {
  cycle: string;
  id: string;
  /** The entries it replaced, as the run saw them. */
  sources: string[];
  /** The original (planted) entries behind it, through earlier merges. */
  leaves: string[];
  prePass: boolean;
  /** Undefined for a correct merge (members of one planted fact), else why it is false. */
  falseBecause?: string;
}

/** Where one planted fact stands at the end: merged into one live entry, or not. */
export interface GroupStatus {
  fact: number;
  members: string[];
  /** Live entries holding at least one member. */
  holders: string[];
  merged: boolean;
}

/**
 * Reads each run's plan from its run folder and follows which original entries every merged
 * entry stands for, so merges can be scored against the planted truth: a merge is correct when
 * all its original entries are members of one planted fact; anything else (two facts, a
 * look-alike, background) is a false merge.
 */
export class MergeAudit {
  readonly merges: MergeRecord[] = [];
  /** Entries deleted outright by the model. */
  readonly deletions: string[] = [];
  /** Single entries rewritten in place. */
  rewrites = 0;
  private readonly leaves = new Map<string, string[]>();

  constructor(private readonly origins: ReadonlyMap<string, Origin>) {}

  async record(cycle: string, dataPath: string, report: CycleReport): Promise<void> {
    const folder = await RunFolder.open(dataPath, report.runId);
    if (!folder || !report.passes.some((pass) => pass.name === PASS && pass.status === 'ok')) return;
    const plan = await folder.readPlan(PASS);
    const sources = new Map<string, string[]>();
    const prePass = new Set<string>();
    for (const operation of plan.operations) {
      if (operation.op === 'memory.save' && operation.expectUpdatedAt !== null) this.rewrites++;
      if (operation.op !== 'memory.delete') continue;
      const target = REPLACED.exec(operation.reason)?.[1];
      if (target === undefined) {
        this.deletions.push(operation.id);
        continue;
      }
      sources.set(target, [...(sources.get(target) ?? []), operation.id]);
      if (operation.reason.startsWith('pre-pass')) prePass.add(target);
    }
    for (const [id, replaced] of sources) {
      const leaves = replaced.flatMap((source) => this.leavesOf(source));
      this.leaves.set(id, leaves);
      const falseBecause = this.judge(leaves);
      this.merges.push({ cycle, id, sources: replaced, leaves, prePass: prePass.has(id), ...(falseBecause ? { falseBecause } : {}) });
    }
  }

  /** Every planted fact with two or more members, as the live entries show it. */
  groups(live: readonly MemoryEntry[]): GroupStatus[] {
    const members = new Map<number, string[]>();
    for (const [id, origin] of this.origins) {
      if (origin.kind === 'fact') members.set(origin.fact, [...(members.get(origin.fact) ?? []), id]);
    }
    const holders = new Map<string, string[]>();
    for (const entry of live) {
      for (const leaf of this.leavesOf(entry.id)) holders.set(leaf, [...(holders.get(leaf) ?? []), entry.id]);
    }
    return [...members]
      .filter(([, ids]) => ids.length >= 2)
      .map(([fact, ids]) => {
        const held = [...new Set(ids.flatMap((id) => holders.get(id) ?? []))];
        return { fact, members: ids, holders: held, merged: held.length === 1 && ids.every((id) => holders.get(id)?.[0] === held[0]) };
      });
  }

  leavesOf(id: string): string[] {
    return this.leaves.get(id) ?? [id];
  }

  private judge(leaves: readonly string[]): string | undefined {
    const origins = leaves.map((leaf) => this.origins.get(leaf) ?? { kind: 'background' as const });
    if (origins.some((origin) => origin.kind === 'moment')) return 'merged a look-alike (a different real-world moment)';
    if (origins.some((origin) => origin.kind === 'background')) return 'merged unrelated entries';
    const facts = new Set(origins.map((origin) => (origin.kind === 'fact' ? origin.fact : -1)));
    return facts.size > 1 ? `merged ${facts.size} different planted facts` : undefined;
  }
}
