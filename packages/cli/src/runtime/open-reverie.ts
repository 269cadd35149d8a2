import { readFile } from 'node:fs/promises';
import { systemClock } from '@reverie/core';
import { FileDreamStateStore } from '@reverie/file-store';
import { createReverie, type DreamingOptionsInput, type Reverie } from 'reverie';
import { UsageError } from '../errors/cli-error';
import type { LoadedModel } from '../model/load-model';
import type { CliTarget } from './cli-target';
import { type DreamStateStore } from '@reverie/dream-state';

/** What a command may add to the Reverie it opens. */
export interface ReverieSetup {
  model?: LoadedModel | undefined;
  /** The host app's `withDreaming()` options (validated by the builder: bad ones exit 2). */
  dreaming?: DreamingOptionsInput | undefined;
  /**
   * Keep the dreaming options' `enabled` switch as given (default on), so a trigger is judged by
   * the gates (`reverie serve`). Otherwise it is turned off. The schedule starts only with
   * `dreams.start()`, which no command calls.
   */
  triggers?: boolean;
}

/**
 * A Reverie over the target's stores — the file stores of a data directory, or one scope of a
 * PostgreSQL database (`.withPostgres()`, directives read from the data directory): long-term
 * memory, working memory, skills and skill usage, the conversation log, feedback and the workflow log —
 * everything a dream pass may read — with the dream cycle configured but its schedule off (the
 * CLI runs cycles only when asked). The one place the CLI builds a Reverie.
 */
export function openReverie(target: CliTarget, setup: ReverieSetup = {}): Reverie {
  const builder = createReverie({
    dataPath: target.dataPath,
    ...(target.kind === 'postgres' ? { scope: target.scope } : {}),
    ...(setup.model ? { model: setup.model.model } : {}),
  });
  if (target.kind === 'postgres') builder.withPostgres({ connectionString: target.url });
  return builder
    .withMemory()
    .withWorkingMemory()
    .withSkills()
    .withConversationLog()
    .withFeedback()
    .withWorkflowLog()
    .withDreaming(setup.triggers ? { ...setup.dreaming } : { ...setup.dreaming, enabled: false })
    .build();
}

/**
 * The target's dream state, for the commands that read runs without building a Reverie
 * (`dream show`, `doctor`); close it after use. `@reverie/postgres` is loaded only for a database.
 */
export async function openDreamState(target: CliTarget): Promise<{ state: DreamStateStore; close(): Promise<void> }> {
  if (target.kind === 'files') {
    const state = new FileDreamStateStore({ dataPath: target.dataPath, clock: systemClock });
    return { state, close: () => state.close() };
  }
  const { postgresClientFromConnectionString, PostgresDreamStateStore } = await import('@reverie/postgres');
  const client = postgresClientFromConnectionString(target.url, { max: 2 });
  const state = new PostgresDreamStateStore({ client, scope: target.scope, clock: systemClock });
  return {
    state,
    close: async () => {
      await state.close();
      await client.close();
    },
  };
}

/** Reads `--options FILE`: a JSON object of dreaming options. Unreadable or not JSON: usage error. */
export async function readDreamingOptions(file: string | undefined): Promise<DreamingOptionsInput | undefined> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the options file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the options file ${file} is not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`the options file ${file} must hold a JSON object of dreaming options`);
  }
  return parsed as DreamingOptionsInput;
}
