import {
  createReverie,
  type CycleReport,
  type IClock,
  type LanguageModelObject,
  type PassOutcome,
  renderDreamStatus,
  type Reverie,
} from 'reverie';
import { describeChanges, type StoreSnapshot } from './describe-changes';
import { type SampleCounts, seedSampleHistory } from './sample-history';

export interface DreamDemoOptions {
  /** An empty or new directory the demo's agent lives in. */
  dataPath: string;
  /** The model the dream passes use; without one only the model-free passes run. */
  model?: LanguageModelObject | undefined;
  /** How the model was named (REVERIE_MODEL), for the printout. */
  modelName?: string | undefined;
  /** The demo's today: its history is dated back from it, and the agent's clock starts at it. */
  now: Date;
  print: (line: string) => void;
}

export interface DreamDemoResult {
  seeded: SampleCounts;
  report: CycleReport;
  changes: string[];
}

/**
 * The `pnpm demo` story: an agent with a few weeks of history, one dream cycle, and what it did.
 * Everything goes through the public API, the way a host would use it.
 */
export async function runDreamDemo(options: DreamDemoOptions): Promise<DreamDemoResult> {
  const { print, now } = options;
  const reverie = openAgent(options);
  try {
    print(`Reverie dream demo — data in ${options.dataPath}`);
    print(`Model: ${options.model ? (options.modelName ?? 'configured') : 'none (set REVERIE_MODEL to run every pass, see below)'}\n`);

    const seeded = await seedSampleHistory(reverie, now);
    print(
      `Seeded a sample history: ${seeded.memories} memories, ${seeded.turns} logged turns in ${seeded.sessions} sessions, ` +
        `${seeded.feedback} feedback signals, ${seeded.skills} skills (${seeded.skillUses} uses), ${seeded.workflowRuns} workflow runs.\n`,
    );

    print('Before the cycle, the agent recalls for "weekly status report units":');
    await printRecall(reverie, 'weekly status report units', print);

    // Today the agent is asked about the wiki three times: each turn's recall is recorded, and the
    // cycle's recall-signals and promotion passes turn that into importance.
    const questions = [
      'Where do we publish the Atlas report?',
      'How do I publish a page to the Atlas wiki?',
      'Which token does the Atlas wiki need?',
    ];
    for (const [index, message] of questions.entries()) await reverie.context.forTurn({ sessionId: `today-${index + 1}`, message });
    print(`\nThe agent answered ${questions.length} questions about the Atlas wiki today; what each turn recalled was recorded.`);

    const before = await snapshot(reverie);
    const report = await reverie.dreams.run({ trigger: 'demo' });
    const after = await snapshot(reverie);

    print(`\nDream run ${report.runId}:`);
    for (const outcome of report.passes) print(`  ${describeOutcome(outcome)}`);

    const changes = describeChanges(before, after);
    print(`\nWhat changed (${changes.length}):`);
    for (const line of changes) print(`  ${line}`);

    print('\nAfter the cycle, the same recall:');
    await printRecall(reverie, 'weekly status report units', print);

    const needModel = report.passes.filter((outcome) => outcome.status === 'skipped' && outcome.reason.includes('language model'));
    if (needModel.length > 0) {
      print(`\n${needModel.length} pass(es) need a language model: ${needModel.map((outcome) => outcome.name).join(', ')}.`);
      print('Set REVERIE_MODEL to run them, e.g. REVERIE_MODEL=openai:gpt-4.1-mini (with OPENAI_API_KEY),');
      print(
        'REVERIE_MODEL=anthropic:claude-sonnet-4-5 (with ANTHROPIC_API_KEY) or REVERIE_MODEL=ollama:llama3.1, then run `pnpm demo` again.',
      );
    }
    print('\nStatus of the dream cycle (reverie.dreams.status()):');
    for (const line of renderDreamStatus(await reverie.dreams.status(), 'text')
      .trimEnd()
      .split('\n'))
      print(`  ${line}`);

    print(
      `\nEvery change can be reverted: reverie.dreams.undo('${report.runId}') (or \`reverie dream undo ${report.runId} --data ${options.dataPath}\`).`,
    );
    return { seeded, report, changes };
  } finally {
    await reverie.close();
  }
}

function openAgent(options: DreamDemoOptions): Reverie {
  return (
    createReverie({ dataPath: options.dataPath, clock: clockStartingAt(options.now), ...(options.model ? { model: options.model } : {}) })
      .withMemory()
      .withSkills()
      .withConversationLog()
      .withFeedback()
      .withWorkflowLog()
      // report: the demo shows what has decayed (by default the decay pass reads nothing: decay is computed where importance is read).
      .withDreaming({ enabled: false, importanceDecay: { report: true } })
      .build()
  );
}

/**
 * A clock that reads `now` when the demo starts and runs on with real time: the real clock when
 * `now` is the real time, and a replay's recorded day otherwise (what the cycle shows the model
 * depends on how old each entry is).
 */
function clockStartingAt(now: Date): IClock {
  const offset = now.getTime() - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** The stores as the agent sees them: importance is what each entry is worth now (decayed, SPEC D7). */
async function snapshot(reverie: Reverie): Promise<StoreSnapshot> {
  const memories = (await reverie.memory!.list()).map((entry) => ({ ...entry, importance: reverie.importanceOf(entry) }));
  return { memories, skills: await reverie.skills!.list() };
}

async function printRecall(reverie: Reverie, query: string, print: (line: string) => void): Promise<void> {
  const results = await reverie.memory!.search({ text: query, maxResults: 4 });
  for (const { entry } of results) print(`  • (${entry.category}, importance ${reverie.importanceOf(entry).toFixed(2)}) ${entry.content}`);
}

/** One line per pass: what it did, or why it did not run. */
export function describeOutcome(outcome: PassOutcome): string {
  if (outcome.status === 'skipped') return `· ${outcome.name} — skipped: ${outcome.reason}`;
  const mark = outcome.status === 'ok' ? '✓' : outcome.status === 'warning' ? '!' : '✗';
  const facts = [`${outcome.itemsProcessed} item(s) looked at`, `${outcome.applied} change(s) applied`];
  if (outcome.tokens.input + outcome.tokens.output > 0) facts.push(`${outcome.tokens.input}/${outcome.tokens.output} tokens`);
  const detail = [
    ...(outcome.warning ? [`warning: ${outcome.warning}`] : []),
    ...outcome.notes,
    ...outcome.refusals.map((refusal) => `refused: ${refusal}`),
    ...(outcome.error ? [`error: ${outcome.error}`] : []),
  ];
  return `${mark} ${outcome.name} — ${facts.join(', ')}${detail.length > 0 ? `\n      ${detail.join('\n      ')}` : ''}`;
}
