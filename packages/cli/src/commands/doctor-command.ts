import { resolve } from 'node:path';
import { checkReverie, type Reverie } from 'reverie';
import { version } from '../../package.json';
import { CliError } from '../errors/cli-error';
import { describeFailure } from '../errors/describe-failure';
import { EXIT } from '../errors/exit-codes';
import { type DoctorCheck, type DoctorReport, renderDoctorReport } from '../doctor/doctor-report';
import { DEFAULT_OLLAMA_BASE_URL, requiredKeyVariable } from '../model/load-model';
import { formatModelSpec, parseModelSpec } from '../model/parse-model-spec';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, DREAMING_OPTIONS_OPTION, formatOption } from './command';

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
      check(
        'data directory',
        'ok',
        context.backend === 'postgres'
          ? 'holds the directives only (the stores are in PostgreSQL); built-in directives where it has none'
          : 'exists and is readable',
      );
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
    // Only the file stores set unreadable files aside; a database refuses bad rows instead.
    const checkup = await checkReverie(reverie, { quarantine: context.backend === 'files' });
    report.checks.push(...checkup.checks);
    report.quarantined = checkup.quarantined;
    report.plan = checkup.plan.map((pass) =>
      pass.reason?.startsWith('needs a language model') ? { ...pass, reason: 'needs a language model: set REVERIE_MODEL' } : pass,
    );
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
