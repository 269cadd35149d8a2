import { workflowFailureAnalysisPass } from './workflow-failure-analysis-options';
import { DeclaredPass } from '../../engine/declared-pass';
import { type ISkillStore, isReverieError, type Skill, skillSchema } from '@reverie/core';
import { matchesAnySkillPattern, ownValue, timestampMs } from '@reverie/core/internal';
import { z } from 'zod';
import { PassCursor } from '@reverie/dream-state';
import { replyAllowance, RunBudget } from '../../review/run-budget';
import type { DreamServices, ModelGatewayLike, PassContext, PassPlan, PassSkip } from '../../engine/dream-types';
import { groupWorkflowRuns, type WorkflowGroup, workflowKey } from './group-workflow-runs';
import { renderWorkflowData, WORKFLOW_DIRECTIVE, WORKFLOW_DIRECTIVE_FILE, type WorkflowPromptItem } from './render-workflow-prompt';
import { appendAnnotations, cleanNote, factualNote, failureCounts, renderAnnotation } from './workflow-annotation';
import {
  type WorkflowFailureAnalysisOptions,
  type WorkflowFailureAnalysisOptionsInput,
  workflowFailureAnalysisOptionsSchema,
} from './workflow-failure-analysis-options';
import { workflowReplySchema } from './workflow-reply';
import { parsePassOptions } from '../parse-pass-options';
import { describeServiceNeeds } from '../../engine/service-needs';
import type { DreamOperation } from '@reverie/dream-state';

/**
 * Per workflow description (its grouping key), the time of the latest failure already written
 * into a skill. Only failures after it count towards the next annotation.
 */
export const workflowCursorSchema = z.object({ annotated: z.record(z.string(), z.string()) });
export type WorkflowCursor = z.infer<typeof workflowCursorSchema>;

/** What `commit` needs of a plan: the cursor it read, and the annotations it wrote. */
const workflowCommitSchema = z.object({
  annotated: workflowCursorSchema.shape.annotated,
  windowStart: z.string(),
  done: z.array(z.object({ key: z.string(), block: z.string(), skills: z.array(z.string()), lastFailure: z.string() })),
});
type WorkflowCommit = z.infer<typeof workflowCommitSchema>;

/** A consistently successful workflow (SPEC D12), reported in the outcome's `details`. */
export interface PromotionCandidate {
  description: string;
  /** The skill that produced most of its successful runs, if any did. */
  skill: string | null;
  runs: number;
  successRate: number;
}

/** A failing workflow the run will annotate, with the skills that get the annotation. */
interface Annotated {
  group: WorkflowGroup;
  skills: Skill[];
  /** Who wrote the note: the model, or the host from the records. */
  source: 'model' | 'host';
  body: string;
}

const DAY_MS = 86_400_000;

/**
 * SPEC D12 (REM, RockBot's "wisps"): learns from workflow execution records.
 *
 * 1. Reads the records of the last `windowDays` and groups them by description.
 * 2. A description with at least `minFailures` failures since its last annotation (a cursor
 *    keeps, per description, the latest failure already annotated) gets an annotation appended
 *    to each skill that produced its failed runs — unless the skill is missing or protected.
 *    The host writes the heading (`## Known failure (<day>): <description>`) and the counts; the
 *    body is the model's note (one call for all failing workflows, only descriptions that were
 *    sent accepted, retention hints stripped, at most `maxNoteChars`), or, without a model or
 *    when the call fails, a factual summary of the failed steps and the most common error.
 * 3. A description with at least `promotionMinRuns` runs and a success rate above
 *    `promotionMinSuccessRate` is reported as a promotion candidate (`details.promotionCandidates`).
 *
 * Each annotated skill is one `skill.save` expecting the `updatedAt` read, so the engine
 * archives it and an undo restores it; `createdAt` and `lastUsedAt` are kept. The cursor moves
 * only after the saves were applied.
 */
export class WorkflowFailureAnalysisPass extends DeclaredPass {
  readonly options: WorkflowFailureAnalysisOptions;

  constructor(options: WorkflowFailureAnalysisOptionsInput = {}) {
    super(workflowFailureAnalysisPass);
    this.options = parsePassOptions('workflow-failure-analysis', workflowFailureAnalysisOptionsSchema, options);
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { workflowLog, skills, state } = context.services;
    if (!workflowLog) return { skipped: describeServiceNeeds(['workflowLog']) };
    if (!skills) return { skipped: describeServiceNeeds(['skills']) };
    const { windowDays, minFailures } = this.options;

    const now = context.now();
    const windowStart = new Date(now.getTime() - windowDays * DAY_MS).toISOString();
    const records = await workflowLog.read({ since: windowStart });
    const groups = groupWorkflowRuns(records);
    const notes = [`${records.length} workflow run(s) of ${groups.length} description(s) in the last ${windowDays} days`];
    const refusals: string[] = [];
    const promotionCandidates = this.promotionCandidates(groups, notes);

    const cursorFile = new PassCursor(state.cursors, this.name, workflowCursorSchema);
    const cursor = (await cursorFile.read()) ?? { annotated: {} };
    const due: WorkflowPromptItem[] = [];
    for (const group of groups) {
      const since = ownValue(cursor.annotated, group.key);
      const fresh = since === undefined ? group.failures : group.failureTimes.filter((at) => timestampMs(at) > timestampMs(since)).length;
      if (fresh < minFailures) {
        if (group.failures >= minFailures)
          notes.push(
            `${JSON.stringify(group.description)}: ${fresh} new failure(s) since the last annotation, fewer than ${minFailures}: not annotated again`,
          );
        continue;
      }
      const targets = await this.targets(group, skills, notes);
      if (targets.length > 0) due.push({ group, skills: targets });
    }

    const details = {
      promotionCandidates,
      annotated: [] as Array<{ description: string; skills: string[]; failures: number; note: 'model' | 'host' }>,
    };
    if (due.length === 0) {
      return { operations: [], itemsProcessed: records.length, notes: [...notes, 'no recurring failure to annotate'], refusals, details };
    }

    const tally = { budget: new RunBudget(0), proposed: 0 };
    const bodies = await this.notes(context, due, notes, refusals, tally);
    const annotated: Annotated[] = due.map((item) => {
      const fromModel = bodies.get(item.group.key);
      const body =
        fromModel === undefined ? factualNote(item.group, windowDays) : `${failureCounts(item.group, windowDays)}\n\n${fromModel}`;
      return { group: item.group, skills: [...item.skills], source: fromModel === undefined ? 'host' : 'model', body };
    });

    const { operations, written } = this.operations(annotated, now, notes, refusals);
    for (const item of annotated) {
      const skillNames = item.skills.map((skill) => skill.name).filter((name) => written.has(name));
      if (skillNames.length === 0) continue;
      details.annotated.push({ description: item.group.description, skills: skillNames, failures: item.group.failures, note: item.source });
    }
    const done = annotated.filter((item) => item.skills.some((skill) => written.has(skill.name)));
    const day = now.toISOString().slice(0, 10);
    const commit: WorkflowCommit = {
      annotated: cursor.annotated,
      windowStart,
      done: done.map((item) => ({
        key: item.group.key,
        block: renderAnnotation(day, item.group.description, item.body).trim(),
        skills: item.skills.map((skill) => skill.name),
        lastFailure: item.group.failureTimes.at(-1)!,
      })),
    };
    return {
      operations,
      itemsProcessed: records.length,
      notes,
      refusals,
      misbehaviour: tally.budget.misbehaviour,
      proposals: { proposed: tally.proposed, accepted: bodies.size },
      details,
      ...(done.length > 0 ? { commit } : {}),
    };
  }

  /** Moves the cursor past the failures whose annotation landed in at least one skill. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    const { annotated, windowStart, done } = workflowCommitSchema.parse(data);
    const next = new Map(Object.entries(annotated).filter(([, at]) => timestampMs(at) >= timestampMs(windowStart)));
    for (const item of done) {
      // A save skipped as a conflict (the skill changed meanwhile) leaves the failures unannotated.
      const landed = await Promise.all(
        item.skills.map(async (name) => (await services.skills?.get(name))?.content.includes(item.block) ?? false),
      );
      if (landed.some(Boolean)) next.set(item.key, item.lastFailure);
    }
    await new PassCursor(services.state.cursors, this.name, workflowCursorSchema).write({ annotated: Object.fromEntries(next) });
  }

  /** The existing, unprotected skills that produced the group's failures (reported when none). */
  private async targets(group: WorkflowGroup, skills: ISkillStore, notes: string[]): Promise<Skill[]> {
    const description = JSON.stringify(group.description);
    if (group.failingSkills.length === 0) {
      notes.push(`${description}: ${group.failures} failure(s) but no producing skill recorded: nothing to annotate`);
      return [];
    }
    const found: Skill[] = [];
    for (const { text: name } of group.failingSkills) {
      if (matchesAnySkillPattern(name, this.options.protectedSkills)) {
        notes.push(`${description}: skill ${JSON.stringify(name)} is protected: not annotated`);
        continue;
      }
      const skill = await skills.get(name);
      if (skill) found.push(skill);
      else notes.push(`${description}: skill ${JSON.stringify(name)} no longer exists: not annotated`);
    }
    return found;
  }

  /**
   * The model's notes by group key, for the groups it wrote a usable one for. Empty without a
   * model or when the call fails (the host then writes factual notes); an abort is rethrown.
   */
  private async notes(
    context: PassContext,
    due: readonly WorkflowPromptItem[],
    notes: string[],
    refusals: string[],
    tally: { budget: RunBudget; proposed: number },
  ): Promise<Map<string, string>> {
    const bodies = new Map<string, string>();
    const gateway: ModelGatewayLike | undefined = context.gateway;
    if (!gateway) {
      notes.push('no language model: the host wrote factual annotations from the records');
      return bodies;
    }
    let reply;
    try {
      reply = await gateway.ask({
        pass: this.name,
        directiveFile: WORKFLOW_DIRECTIVE_FILE,
        builtInDirective: WORKFLOW_DIRECTIVE,
        data: renderWorkflowData({ today: context.now(), windowDays: this.options.windowDays, items: due }),
        schema: workflowReplySchema,
        signal: context.signal,
      });
    } catch (error) {
      if (context.signal.aborted || isReverieError(error, 'ABORTED') || (error instanceof Error && error.name === 'AbortError'))
        throw error;
      const message = isReverieError(error) ? `${error.code}: ${error.message}` : String((error as Error)?.message ?? error);
      notes.push(`model call failed (${message}): the host wrote factual annotations from the records`);
      return bodies;
    }
    context.signal.throwIfAborted();
    tally.proposed += reply.annotations.length;
    // One note per workflow sent, within the reply allowance (SPEC B11).
    if (!tally.budget.admit(1, { saves: reply.annotations.length, deletions: 0 }, replyAllowance(due.length))) {
      notes.push('the reply was refused whole (see misbehaviour): the host wrote factual annotations');
      return bodies;
    }

    const sent = new Set(due.map((item) => item.group.key));
    reply.annotations.forEach((annotation, index) => {
      const where = `annotation ${index + 1}`;
      const key = workflowKey(annotation.description);
      if (!sent.has(key)) {
        refusals.push(`${where} refused: description ${JSON.stringify(annotation.description)} was not sent`);
        return;
      }
      if (bodies.has(key)) {
        refusals.push(`${where} refused: a second note for ${JSON.stringify(annotation.description)}`);
        return;
      }
      const note = cleanNote(annotation.note, this.options.maxNoteChars);
      if (note.text === '') {
        refusals.push(`${where} refused: its note is empty`);
        return;
      }
      if (note.cut) notes.push(`${where}: note cut to ${this.options.maxNoteChars} characters`);
      bodies.set(key, note.text);
    });
    const missing = due.length - bodies.size;
    if (missing > 0) notes.push(`${missing} workflow(s) without a usable model note: the host wrote factual annotations`);
    return bodies;
  }

  /** One `skill.save` per annotated skill, with every annotation for it appended. */
  private operations(
    annotated: readonly Annotated[],
    now: Date,
    notes: string[],
    refusals: string[],
  ): { operations: DreamOperation[]; written: Set<string> } {
    const day = now.toISOString().slice(0, 10);
    const bySkill = new Map<string, { skill: Skill; blocks: string[]; descriptions: string[] }>();
    for (const item of annotated) {
      for (const skill of item.skills) {
        let entry = bySkill.get(skill.name);
        if (!entry) bySkill.set(skill.name, (entry = { skill, blocks: [], descriptions: [] }));
        entry.blocks.push(renderAnnotation(day, item.group.description, item.body));
        entry.descriptions.push(JSON.stringify(item.group.description));
      }
    }
    const operations: DreamOperation[] = [];
    const written = new Set<string>();
    for (const { skill, blocks, descriptions } of bySkill.values()) {
      const content = appendAnnotations(skill.content, blocks);
      if (!skillSchema.shape.content.safeParse(content).success) {
        refusals.push(`annotation of skill ${JSON.stringify(skill.name)} refused: the skill would grow past its maximum length`);
        continue;
      }
      operations.push({
        op: 'skill.save',
        skill: { ...skill, content },
        expectUpdatedAt: skill.updatedAt,
        reason: `workflow-failure-analysis: known failure(s) of ${descriptions.join(', ')} annotated`,
      });
      written.add(skill.name);
      notes.push(`skill ${JSON.stringify(skill.name)} annotated with ${blocks.length} known failure(s): ${descriptions.join(', ')}`);
    }
    return { operations, written };
  }

  /** Descriptions that ran often enough and nearly always succeeded (SPEC D12), each also noted. */
  private promotionCandidates(groups: readonly WorkflowGroup[], notes: string[]): PromotionCandidate[] {
    const candidates: PromotionCandidate[] = [];
    for (const group of groups) {
      if (group.runs < this.options.promotionMinRuns || group.successRate <= this.options.promotionMinSuccessRate) continue;
      const skill = group.succeedingSkills[0]?.text ?? null;
      candidates.push({ description: group.description, skill, runs: group.runs, successRate: group.successRate });
      notes.push(
        `promotion candidate: ${JSON.stringify(group.description)}${skill === null ? '' : ` (skill ${JSON.stringify(skill)})`}: ${group.successes} of ${group.runs} run(s) succeeded (${Math.round(group.successRate * 100)}%)`,
      );
    }
    return candidates;
  }
}
