import type { CycleReport } from '@reverie/dream';
import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import type { DreamStateStore, RunManifest } from '@reverie/dream-state';

/** Everything `dream show` tells about one run, read from its records. */
export interface RunDetails {
  manifest: RunManifest;
  /** Where the run's records are (its folder). */
  folder?: string;
  /** The cycle report the run left (absent while running, or after a crash). */
  report: CycleReport | null;
  /** Operations in the journal, by outcome. */
  journal: { applied: number; conflict: number; noop: number };
  /** What the run kept besides its archive (manifest, plans, journal, prompts, replies…). */
  artifacts: string[];
}

/**
 * Reads a run (`_system/dreams/runs/<date>-<runId>/` for files) without opening any store.
 * `latest` names the newest run. Unknown ids are NOT_FOUND (exit 4).
 */
export async function readRunDetails(state: DreamStateStore, runId: string): Promise<RunDetails> {
  const where = state.location === undefined ? '' : ` in ${state.location}`;
  let id = runId;
  if (runId === 'latest') {
    const runs = await state.runs.list();
    const newest = runs.sort((a, b) => a.manifest.startedAt.localeCompare(b.manifest.startedAt)).at(-1);
    if (!newest) throw new CliError(`no dream runs${where} yet`, EXIT.NOT_FOUND);
    id = newest.manifest.runId;
  }
  const run = await state.runs.open(id);
  if (!run) throw new CliError(`no dream run ${id}${where}: run ids are printed by 'reverie dream run'`, EXIT.NOT_FOUND);
  const journal = { applied: 0, conflict: 0, noop: 0 };
  for (const line of await run.readJournal()) journal[line.outcome]++;
  return {
    manifest: { ...run.state },
    ...(run.location === undefined ? {} : { folder: run.location }),
    report: parseReport(await run.readArtifact('report.json')),
    journal,
    artifacts: await run.listArtifacts(),
  };
}

function parseReport(text: string | undefined): CycleReport | null {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as CycleReport;
  } catch {
    return null;
  }
}
