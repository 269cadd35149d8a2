import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CycleReport, RunFolder, type RunManifest } from '@reverie/dream';
import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';

/** Everything `dream show` tells about one run, read from its folder. */
export interface RunDetails {
  manifest: RunManifest;
  folder: string;
  /** The cycle report the run left (absent while running, or after a crash). */
  report: CycleReport | null;
  /** Operations in the journal, by outcome. */
  journal: { applied: number; conflict: number; noop: number };
  /** Files in the run folder (the archive folder aside). */
  artifacts: string[];
}

/**
 * Reads a run folder (`_system/dreams/runs/<date>-<runId>/`) without opening any store. `latest`
 * names the newest run. Unknown ids are NOT_FOUND (exit 4).
 */
export async function readRunDetails(dataPath: string, runId: string): Promise<RunDetails> {
  let id = runId;
  if (runId === 'latest') {
    const runs = await RunFolder.list(dataPath);
    const newest = runs.sort((a, b) => a.manifest.startedAt.localeCompare(b.manifest.startedAt)).at(-1);
    if (!newest) throw new CliError(`no dream runs in ${dataPath} yet`, EXIT.NOT_FOUND);
    id = newest.manifest.runId;
  }
  const folder = await RunFolder.open(dataPath, id);
  if (!folder) throw new CliError(`no dream run ${id} in ${dataPath}: run ids are printed by 'reverie dream run'`, EXIT.NOT_FOUND);
  const journal = { applied: 0, conflict: 0, noop: 0 };
  for (const line of await folder.readJournal()) journal[line.outcome]++;
  const artifacts = (await readdir(folder.dir, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  return { manifest: { ...folder.state }, folder: folder.dir, report: await readReport(folder.dir), journal, artifacts };
}

async function readReport(dir: string): Promise<CycleReport | null> {
  try {
    return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as CycleReport;
  } catch {
    return null;
  }
}
