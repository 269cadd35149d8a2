import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ILongTermMemory, ManualClock } from '@reverie/core';
import { createReverie, type Reverie } from 'reverie';
import { z } from 'zod';
import { evidenceRecallAt, mean } from './evidence-recall';
import type { LocomoConversation } from './locomo-data';
import { writeCycleData } from './cycle-data';
import { conversationOf, entryEvidence, evidenceByContent } from './locomo-memory';
import { loadRecordedExchanges, RecordedModel, type ReplayedRequest } from './recorded-model';

/** The pass whose replies are counted as proposals, and its reply's first key. */
const CONSOLIDATION = { pass: 'memory-consolidation', kind: 'toDelete' } as const;

/** Evidence recall of a data directory's memory over a conversation's questions. */
export interface CycleRecall {
  at5: number;
  at10: number;
}

export interface PassTokens {
  name: string;
  input: number;
  output: number;
}

/** The time recorded cycles were made at, and are replayed at. */
export const RECORDING_CLOCK = '2026-11-27T17:00:00.000Z';

/** What replaying a recorded cycle through today's directives and guards gave. */
export interface CycleReplay {
  /** The LoCoMo conversation the cycle's data directory was made from. */
  conversation: LocomoConversation;
  questions: number;
  entriesBefore: number;
  entriesAfter: number;
  recallBefore: CycleRecall;
  recallAfter: CycleRecall;
  /** Consolidation calls (first requests) and the host's repair requests. */
  calls: number;
  repairRounds: number;
  /** The same, as recorded. */
  recordedCalls: number;
  recordedRepairs: number;
  /** What the model proposed in its first replies (saves, distinct deletions, supersessions). */
  proposed: number;
  /** The proposals the guards refused (by the first reply or its repair; see `refusedProposals`), and those refused when the cycle was recorded. */
  refused: Set<string>;
  recordedRefused: Set<string>;
  /** The recorded first replies' proposals, and those of them no prompt showed the entries of (not replayed). */
  recordedProposals: number;
  unreplayed: number;
  /** Requests no recorded call matched (answered with an empty reply). */
  unmatched: ReplayedRequest[];
  /** Tokens per pass of the replay (as the recording counted them), and as recorded. */
  tokens: PassTokens[];
  recordedTokens: PassTokens[];
  /** The consolidation pass's refusals, as the report gives them. */
  refusals: string[];
  requests: ReplayedRequest[];
}

export interface CycleReplayOptions {
  /** LoCoMo's conversations; the one the cycle's entries come from is found by their text. */
  conversations: readonly LocomoConversation[];
  /** The clock of the replay (default: 2026-11-27T17:00Z, when the recorded cycles were made). */
  clock?: ManualClock;
  /**
   * Called with the data directory's memory before the cycle and after it (once recall is
   * measured), and the observations' evidence by entry id as they were before: to look at what a
   * question found each time (`pnpm --filter @reverie/bench locomo:cycle-diff`).
   */
  inspect?: (
    phase: 'before' | 'after',
    memory: ILongTermMemory,
    evidenceById: ReadonlyMap<string, readonly string[]>,
    conversation: LocomoConversation,
  ) => Promise<void>;
}

const reportSchema = z
  .object({
    passes: z.array(
      z
        .object({
          name: z.string(),
          tokens: z.object({ input: z.number(), output: z.number() }).optional(),
          refusals: z.array(z.string()).optional(),
        })
        .loose(),
    ),
  })
  .loose();

/**
 * Replays a recorded dream cycle (`<folder>/initial/`, a data directory; `<folder>/exchanges/`,
 * its requests and a real model's replies) through today's directives and guards: copies
 * `initial/` to a temporary directory, measures evidence recall, runs a full dream cycle there
 * with a `RecordedModel` that answers each prompt with the recorded reply of the call that showed
 * the same entries, and measures again. An entry a merge wrote carries the evidence of every
 * observation it replaced (its lineage's ancestors). The temporary directory is removed.
 */
export async function replayRecordedCycle(folder: string, options: CycleReplayOptions): Promise<CycleReplay> {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-cycle-'));
  let reverie: Reverie | undefined;
  try {
    const clock = options.clock ?? new ManualClock(RECORDING_CLOCK);
    // A cycle kept in the repository names its conversation; its data directory is built from LoCoMo.
    const made = cycleManifest(folder);
    if (made) {
      const conversation = options.conversations.find((candidate) => candidate.index === made.conversation);
      if (!conversation) throw new Error(`${folder}: LoCoMo has no conversation ${made.conversation}`);
      await writeCycleData(conversation, dataPath, new ManualClock(RECORDING_CLOCK));
    } else copyWritable(join(folder, 'initial'), dataPath);
    const recorded = new RecordedModel(loadRecordedExchanges(join(folder, 'exchanges')));
    reverie = createReverie({ dataPath, model: recorded.model, clock })
      .withMemory()
      .withWorkingMemory()
      .withSkills()
      .withConversationLog()
      .withFeedback()
      .withWorkflowLog()
      .withDreaming({ enabled: false })
      .build();
    const memory = reverie.memory!;
    const before = await memory.list();
    const conversation = conversationOf(
      before.map((entry) => entry.content),
      options.conversations,
    );
    if (!conversation) throw new Error(`${folder}: no LoCoMo conversation holds the entries of initial/`);
    const evidenceById = evidenceByContent(before, conversation);
    const recallOf = async (): Promise<CycleRecall> => {
      const at5: number[] = [];
      const at10: number[] = [];
      for (const question of conversation.questions) {
        const ranked = (await memory.search({ text: question.text, maxResults: 10 })).map((hit) => entryEvidence(hit.entry, evidenceById));
        at5.push(evidenceRecallAt(5, ranked, question.evidence));
        at10.push(evidenceRecallAt(10, ranked, question.evidence));
      }
      return { at5: mean(at5), at10: mean(at10) };
    };
    const recallBefore = await recallOf();
    await options.inspect?.('before', memory, evidenceById, conversation);

    const report = await reverie.dreams.run();
    const after = await memory.list();
    const recallAfter = await recallOf();
    await options.inspect?.('after', memory, evidenceById, conversation);

    const consolidation = report.passes.find((pass) => pass.name === CONSOLIDATION.pass);
    const refusals = consolidation && consolidation.status !== 'skipped' ? consolidation.refusals : [];
    const asked = recorded.requests.filter((request) => request.key.kind === CONSOLIDATION.kind);
    const recordedReport = join(folder, 'report.json');
    const recordedPasses = existsSync(recordedReport) ? reportSchema.parse(JSON.parse(readFileSync(recordedReport, 'utf8'))).passes : [];
    const recordedRefusals = recordedPasses.find((pass) => pass.name === CONSOLIDATION.pass)?.refusals ?? [];
    return {
      conversation,
      questions: conversation.questions.length,
      entriesBefore: before.length,
      entriesAfter: after.length,
      recallBefore,
      recallAfter,
      calls: asked.filter((request) => request.answer === 'first').length,
      repairRounds: asked.filter((request) => request.answer === 'repair').length,
      recordedCalls: recorded.recorded.filter((call) => call.key.kind === CONSOLIDATION.kind).length,
      // One recorded repair request may have served several calls: each request counts once.
      recordedRepairs: new Set(
        recorded.recorded.flatMap((call) => (call.key.kind === CONSOLIDATION.kind && call.repair ? [call.repair.number] : [])),
      ).size,
      proposed: asked.filter((request) => request.answer === 'first').reduce((sum, request) => sum + request.proposals, 0),
      recordedProposals: recorded.recordedProposals,
      unreplayed: recorded.unreplayed,
      refused: refusedProposals(refusals),
      recordedRefused: refusedProposals(recordedRefusals),
      unmatched: recorded.requests.filter((request) => request.answer === 'none'),
      tokens: report.passes.flatMap((pass) =>
        pass.status === 'skipped' ? [] : [{ name: pass.name, input: pass.tokens.input, output: pass.tokens.output }],
      ),
      recordedTokens: recordedPasses.flatMap((pass) =>
        pass.tokens ? [{ name: pass.name, input: pass.tokens.input, output: pass.tokens.output }] : [],
      ),
      refusals,
      requests: recorded.requests,
    };
  } finally {
    await reverie?.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
}

/** `cycle.json` of a recorded cycle kept in the repository: the LoCoMo conversation its data directory is built from. */
const manifestSchema = z.object({ conversation: z.number().int().min(0) }).loose();

function cycleManifest(folder: string): z.infer<typeof manifestSchema> | undefined {
  const file = join(folder, 'cycle.json');
  return existsSync(file) ? manifestSchema.parse(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

/** Copies a folder whose files may be read-only (the shared recordings are) into `to`, writable. */
function copyWritable(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const walk = (path: string) => {
    const stat = statSync(path);
    chmodSync(path, stat.mode | 0o200 | (stat.isDirectory() ? 0o700 : 0));
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(to);
}

/**
 * The proposals the consolidation pass refused, from its refusals, each once whether the first
 * reply or its repair gave the reason, named by what they are about: `toSave:<its sources>`
 * (from "its sources stay (…)"), `toSupersede:<older>,<newer>`, `toDelete:<id>`. Pure.
 */
export function refusedProposals(refusals: readonly string[]): Set<string> {
  const refused = new Set<string>();
  for (const refusal of refusals) {
    const save = /^call \d+: toSave item \d+ refused: .*; its sources stay \(([0-9a-f, ]+)\)$/.exec(refusal);
    const supersede = /^call \d+: toSupersede item \d+ \(([0-9a-f]{12}) → ([0-9a-f]{12})\) refused/.exec(refusal);
    const deletion = /^call \d+: delete ([0-9a-f]{12}) refused/.exec(refusal);
    if (save) refused.add(`toSave:${save[1]!.split(/,\s*/).sort().join(',')}`);
    else if (supersede) refused.add(`toSupersede:${supersede[1]},${supersede[2]}`);
    else if (deletion) refused.add(`toDelete:${deletion[1]}`);
  }
  return refused;
}
