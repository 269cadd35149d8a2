import { resolve } from 'node:path';
import type { Reverie } from 'reverie';
import { version } from '../../package.json';
import { CliError } from '../errors/cli-error';
import { describeFailure } from '../errors/describe-failure';
import { EXIT } from '../errors/exit-codes';
import { type DoctorCheck, type DoctorReport, renderDoctorReport } from '../doctor/doctor-report';
import { findQuarantined } from '../doctor/find-quarantined';
import { DEFAULT_OLLAMA_BASE_URL, requiredKeyVariable } from '../model/load-model';
import { formatModelSpec, parseModelSpec } from '../model/parse-model-spec';
import { plural } from '../output/single-line';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, type CommandContext, DREAMING_OPTIONS_OPTION, formatOption } from './command';

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check the data directory (or database), the stores, the model setting and the dream runs',
  description: [
    'Checks what the CLI would work with and says what is wrong: the data directory, the model',
    'named by REVERIE_MODEL (not contacted), each store (can it be read, how much it holds), files',
    'the stores set aside as unreadable, interrupted or failed dream runs, which passes a cycle',
    'would run, and the dreaming options in force. With --postgres it checks the database instead',
    'of the files (connecting and migrating it). Exits with 3 when the data directory or the',
    'database cannot be used, 1 when another check fails, 0 otherwise (warnings included).',
  ].join('\n'),
  args: [],
  options: [DREAMING_OPTIONS_OPTION, formatOption()],
  examples: ['reverie doctor', 'reverie doctor --data ~/agents/ana/.reverie --format json'],
  async run(context) {
    const report: DoctorReport = {
      version,
      node: process.version,
      dataPath: context.dataPath,
      ...(context.backend === 'postgres' ? { database: context.where } : {}),
      checks: [],
      quarantined: [],
      plan: [],
      options: null,
    };
    const check = (name: string, status: DoctorCheck['status'], detail: string) => report.checks.push({ name, status, detail });
    const finish = () => {
      if (context.options.format === 'json') context.printJson(report);
      else context.print(renderDoctorReport(report));
      const failed = report.checks.filter((c) => c.status === 'fail').map((c) => c.name);
      if (failed.length === 0) return EXIT.OK;
      context.note(`reverie: doctor found problems with: ${failed.join(', ')}`);
      return failed.includes('data directory') || failed.includes('database') ? EXIT.DATA_DIR : EXIT.FAILED;
    };

    checkModel(context.io.env, check);
    try {
      await context.prepare('read');
      check('data directory', 'ok', context.backend === 'postgres' ? 'holds the directives only (the stores are in PostgreSQL); built-in directives where it has none' : 'exists and is readable');
    } catch (error) {
      check('data directory', 'fail', describeFailure(error).message);
      return finish();
    }
    if (context.backend === 'postgres') {
      try {
        await (await context.dreamState()).lock.state();
        check('database', 'ok', `reachable, schema up to date (${context.where})`);
      } catch (error) {
        check('database', 'fail', describeFailure(error).message);
        return finish();
      }
    }
    let reverie: Reverie;
    try {
      const file = context.options.options;
      const dreaming = await readDreamingOptions(typeof file === 'string' ? resolve(context.io.cwd, file) : undefined);
      reverie = await context.open('read', { dreaming });
    } catch (error) {
      if (error instanceof CliError && error.exitCode === EXIT.DATA_DIR) throw error;
      check('dreaming options', 'fail', describeFailure(error).message);
      return finish();
    }
    report.options = reverie.dreams.options as unknown as Record<string, unknown>;
    report.plan = reverie.dreams.plan().map((pass) =>
      pass.reason?.startsWith('needs a language model') ? { ...pass, reason: 'needs a language model: set REVERIE_MODEL' } : pass,
    );
    await checkStores(reverie, check);
    // Only the file stores set unreadable files aside; a database refuses bad rows instead.
    if (context.backend === 'files') {
      report.quarantined = await findQuarantined(context.dataPath);
      check(
        'quarantine',
        report.quarantined.length > 0 ? 'warn' : 'ok',
        report.quarantined.length > 0 ? `${plural(report.quarantined.length, 'file')} set aside as unreadable (listed below)` : 'no file set aside as unreadable',
      );
    }
    await checkRuns(context, check);
    await checkLockAndLedger(reverie, context.backend === 'files' ? 'this data directory' : 'this scope', check);
    return finish();
  },
};

type Check = (name: string, status: DoctorCheck['status'], detail: string) => void;

function checkModel(env: NodeJS.ProcessEnv, check: Check): void {
  const raw = env.REVERIE_MODEL;
  if (!raw?.trim()) {
    check('model', 'warn', 'REVERIE_MODEL is not set: dream passes that need a model are skipped');
    return;
  }
  try {
    const spec = parseModelSpec(raw);
    const key = requiredKeyVariable(spec);
    if (key && !env[key]) {
      check('model', 'fail', `${formatModelSpec(spec)} needs ${key}, which is not set`);
      return;
    }
    const where = spec.provider === 'ollama' ? ` at ${env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_BASE_URL}` : '';
    check('model', 'ok', `${formatModelSpec(spec)}${where} (not contacted)`);
  } catch (error) {
    check('model', 'fail', describeFailure(error).message);
  }
}

async function checkStores(reverie: Reverie, check: Check): Promise<void> {
  const probe = async (name: string, read: () => Promise<string>) => {
    try {
      check(name, 'ok', await read());
    } catch (error) {
      check(name, 'fail', `cannot be read: ${describeFailure(error).message}`);
    }
  };
  await probe('memory', async () => {
    const categories = await reverie.memory!.listCategories();
    const entries = categories.reduce((sum, category) => sum + category.count, 0);
    return `${plural(entries, 'entry', 'entries')} in ${plural(categories.length, 'category', 'categories')}`;
  });
  await probe('skills', async () => plural((await reverie.skills!.list()).length, 'skill'));
  await probe('conversation log', async () => `${plural((await reverie.conversationLog!.read()).length, 'turn')} not yet cleared by the dream cycle`);
}

async function checkRuns(context: CommandContext, check: Check): Promise<void> {
  const state = await context.dreamState();
  const runs = await state.runs.list();
  const failures = await state.deadLetters.list();
  if (runs.length === 0) {
    check('dream runs', 'ok', 'no dream run yet');
    return;
  }
  const latest = [...runs].sort((a, b) => a.manifest.startedAt.localeCompare(b.manifest.startedAt)).at(-1)!.manifest;
  const running = runs.filter((run) => run.manifest.status === 'running').map((run) => run.manifest.runId);
  const facts = [`${plural(runs.length, 'run')} kept; latest ${latest.runId} (${latest.status}, ${latest.startedAt})`];
  if (running.length > 0) facts.push(`${running.join(', ')} still marked running: if no process is dreaming now, 'reverie dream run' recovers ${running.length === 1 ? 'it' : 'them'} first`);
  if (failures.length > 0) facts.push(`${plural(failures.length, 'failed run')} left a dead letter${context.backend === 'files' ? ' in _system/dreams/failures/' : ''}`);
  check('dream runs', running.length > 0 || failures.length > 0 ? 'warn' : 'ok', facts.join('; '));
}

async function checkLockAndLedger(reverie: Reverie, where: string, check: Check): Promise<void> {
  const lock = await reverie.dreams.lockState();
  if (lock.status === 'free') check('dream lock', 'ok', `free: no process is dreaming on ${where}`);
  else {
    const who = `pid ${lock.holder.pid} on ${lock.holder.host} since ${lock.holder.acquiredAt}${lock.holder.runId ? ` (run ${lock.holder.runId})` : ''}`;
    check('dream lock', 'warn', lock.stale ? `held by ${who}, stale (${lock.staleReason ?? 'too old'}): the next run may take it over` : `held by ${who}: a dream run is in progress`);
  }
  const status = await reverie.dreams.status({ windowHours: 24 * 7 });
  const phases = status.phases.map((phase) => `${phase.phase} ${phase.lastRunAt ? `last ran ${phase.lastRunAt}${phase.lastSuccessAt ? `, last ok ${phase.lastSuccessAt}` : ', never ok'}` : 'never ran'}`);
  const failed = status.phases.reduce((sum, phase) => sum + phase.failed, 0);
  check('last runs', failed > 0 ? 'warn' : 'ok', `${phases.join('; ')}${failed > 0 ? `; ${plural(failed, 'failed pass run')} in the last 7 days` : ''}`);
}
