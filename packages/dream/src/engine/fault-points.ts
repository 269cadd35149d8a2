import { appendFileSync } from 'node:fs';

/**
 * Named points in the engine's write path where a crash test can kill the process (SPEC B2).
 * In production neither variable is set and `faultPoint` only reads an already-parsed setting.
 *
 * Test-only environment variables, read once per process:
 * - `REVERIE_FAULT_KILL_AT="<name>#<n>"`: the n-th time (1-based) the point `<name>` is reached,
 *   the process sends itself SIGKILL (no clean-up, no `finally`, no exit handlers), like a power cut
 *   or an OOM kill would.
 * - `REVERIE_FAULT_TRACE=<file>`: every point reached is appended to `<file>`, one name per
 *   line (synchronously, so the trace is complete up to the kill), so a test can list them all.
 */
interface FaultSettings {
  killAt?: { name: string; hit: number };
  trace?: string;
}

let settings: FaultSettings | undefined;
const hits = new Map<string, number>();

function read(): FaultSettings {
  const found: FaultSettings = {};
  const killAt = process.env.REVERIE_FAULT_KILL_AT;
  if (killAt) {
    const match = /^(.+)#(\d+)$/.exec(killAt);
    if (match) found.killAt = { name: match[1]!, hit: Number(match[2]) };
  }
  if (process.env.REVERIE_FAULT_TRACE) found.trace = process.env.REVERIE_FAULT_TRACE;
  return found;
}

/** Marks that the write path reached `name`; see the module comment. */
export function faultPoint(name: string): void {
  settings ??= read();
  if (!settings.killAt && !settings.trace) return;
  const count = (hits.get(name) ?? 0) + 1;
  hits.set(name, count);
  if (settings.trace) appendFileSync(settings.trace, `${name}\n`);
  if (settings.killAt && settings.killAt.name === name && settings.killAt.hit === count) process.kill(process.pid, 'SIGKILL');
}
