import type { Reverie } from '../builder/reverie';
import type { DreamPassPlan } from '../dreaming/dream-pass-catalog';
import { findQuarantined } from './find-quarantined';

export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One finding of `checkReverie`. */
export interface ReverieCheck {
  name: string;
  status: CheckStatus;
  detail: string;
}

/** What `checkReverie` looks at beyond the stores and the dream runs. */
export interface CheckReverieOptions {
  /**
   * Look for files the file stores set aside as unreadable (default true). Leave it off for a
   * Reverie on PostgreSQL, which refuses bad rows instead of setting files aside.
   */
  quarantine?: boolean;
}

/** What `checkReverie` found about a built Reverie. */
export interface ReverieCheckup {
  /** memory, skills, conversation log (those registered), quarantine (unless left off), dream runs, dream lock, last runs. */
  checks: ReverieCheck[];
  /** Files the file stores set aside as unreadable, relative to the data directory. */
  quarantined: string[];
  /** Which dream passes a cycle would run with this setup, and why the others are skipped. */
  plan: DreamPassPlan[];
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();

/**
 * Checks what a Reverie works with and says what is wrong, without changing anything: can each
 * store be read and how much it holds, files set aside as unreadable, runs left running or
 * dead-lettered, the dream lock, and the last runs of each phase. `reverie doctor` and the
 * server's doctor operation both report it.
 */
export async function checkReverie(reverie: Reverie, options: CheckReverieOptions = {}): Promise<ReverieCheckup> {
  const checks: ReverieCheck[] = [];
  const check = (name: string, status: CheckStatus, detail: string) => checks.push({ name, status, detail });
  const probe = async (name: string, read: () => Promise<string>) => {
    try {
      check(name, 'ok', await read());
    } catch (error) {
      check(name, 'fail', `cannot be read: ${messageOf(error)}`);
    }
  };
  const { memory, skills, conversationLog } = reverie;
  if (memory) {
    await probe('memory', async () => {
      const categories = await memory.listCategories();
      const entries = categories.reduce((sum, category) => sum + category.count, 0);
      return `${plural(entries, 'entry', 'entries')} in ${plural(categories.length, 'category', 'categories')}`;
    });
  }
  if (skills) await probe('skills', async () => plural((await skills.list()).length, 'skill'));
  if (conversationLog)
    await probe(
      'conversation log',
      async () => `${plural((await conversationLog.read()).length, 'turn')} not yet cleared by the dream cycle`,
    );

  const quarantined = options.quarantine === false ? [] : await findQuarantined(reverie.dataPath);
  if (options.quarantine !== false) {
    check(
      'quarantine',
      quarantined.length > 0 ? 'warn' : 'ok',
      quarantined.length > 0
        ? `${plural(quarantined.length, 'file')} set aside as unreadable (listed below)`
        : 'no file set aside as unreadable',
    );
  }
  await checkRuns(reverie, check);
  await checkLockAndLedger(reverie, check);
  return { checks, quarantined, plan: reverie.dreams.plan() };
}

type Check = (name: string, status: CheckStatus, detail: string) => void;

async function checkRuns(reverie: Reverie, check: Check): Promise<void> {
  const runs = await reverie.dreams.listRuns();
  if (runs.length === 0) {
    check('dream runs', 'ok', 'no dream run yet');
    return;
  }
  const latest = [...runs].sort((a, b) => a.startedAt.localeCompare(b.startedAt)).at(-1)!;
  const running = runs.filter((run) => run.status === 'running').map((run) => run.runId);
  const failures = runs.filter((run) => run.deadLetter).length;
  const facts = [`${plural(runs.length, 'run')} kept; latest ${latest.runId} (${latest.status}, ${latest.startedAt})`];
  if (running.length > 0)
    facts.push(
      `${running.join(', ')} still marked running: if no process is dreaming now, the next dream run recovers ${running.length === 1 ? 'it' : 'them'} first`,
    );
  if (failures > 0) facts.push(`${plural(failures, 'failed run')} left a dead letter (retry with 'reverie dream retry <runId>')`);
  check('dream runs', running.length > 0 || failures > 0 ? 'warn' : 'ok', facts.join('; '));
}

async function checkLockAndLedger(reverie: Reverie, check: Check): Promise<void> {
  const lock = await reverie.dreams.lockState();
  if (lock.status === 'free')
    check(
      'dream lock',
      'ok',
      `free: no process is dreaming on ${reverie.scope === undefined ? 'this data directory' : `the scope ${reverie.scope}`}`,
    );
  else {
    const who = `pid ${lock.holder.pid} on ${lock.holder.host} since ${lock.holder.acquiredAt}${lock.holder.runId ? ` (run ${lock.holder.runId})` : ''}`;
    check(
      'dream lock',
      'warn',
      lock.stale
        ? `held by ${who}, stale (${lock.staleReason ?? 'too old'}): the next run may take it over`
        : `held by ${who}: a dream run is in progress`,
    );
  }
  const status = await reverie.dreams.status({ windowHours: 24 * 7 });
  const phases = status.phases.map(
    (phase) =>
      `${phase.phase} ${phase.lastRunAt ? `last ran ${phase.lastRunAt}${phase.lastSuccessAt ? `, last ok ${phase.lastSuccessAt}` : ', never ok'}` : 'never ran'}`,
  );
  const failed = status.phases.reduce((sum, phase) => sum + phase.failed, 0);
  check(
    'last runs',
    failed > 0 ? 'warn' : 'ok',
    `${phases.join('; ')}${failed > 0 ? `; ${plural(failed, 'failed pass run')} in the last 7 days` : ''}`,
  );
}
