import { type IClock, type ILogger, isReverieError } from '@reverie/core';
import type { CycleReport } from '@reverie/dream';
import { lastSuccessfulRun } from '../status/dream-status';
import { type DreamLockStatus } from '@reverie/dream-state';
import type { DreamGateOptions } from './gate-options';
import { SessionLog } from './session-log';
import type { SignalSource } from './signal-source';
import type { DreamStateStore } from '@reverie/dream-state';

export type GateName = 'disabled' | 'time' | 'sessions' | 'lock' | 'signal';

/** How one gate judged a trigger. */
export interface GateOutcome {
  gate: GateName;
  passed: boolean;
  reason: string;
}

/** A blocked trigger is an answer, not an error: it names the gate that stopped it. */
export type TriggerResult =
  | { triggered: false; gate: GateName; reason: string; gates: GateOutcome[] }
  | { triggered: true; report: CycleReport; gates: GateOutcome[] };

export interface TriggerRequest {
  /** What started it, recorded as the run's trigger: 'schedule', 'tick', 'session-end', 'manual'… (default 'manual'). */
  reason?: string;
  signal?: AbortSignal;
}

/** The engine as the trigger uses it (`DreamEngine` fits). */
export interface TriggerableEngine {
  run(request: { trigger: string; signal?: AbortSignal }): Promise<CycleReport>;
  lockState(): Promise<DreamLockStatus>;
}

export interface DreamTriggerOptions {
  engine: TriggerableEngine;
  /** Where the gates read the ledger and the completed sessions (the engine's state store). */
  state: Pick<DreamStateStore, 'ledger' | 'sessions'>;
  clock: IClock;
  logger: ILogger;
  /** False: every trigger stops at the 'disabled' gate. */
  enabled: boolean;
  gates?: DreamGateOptions | undefined;
  signalSource?: SignalSource | undefined;
}

const HOUR_MS = 3_600_000;

/**
 * Decides whether a trigger runs a cycle (SPEC O2, O3): the gates are evaluated cheapest first —
 * disabled, time since the last successful run, sessions since then, the lock, the recall
 * signal — and the first that says no ends the trigger with its reason. Every trigger, from the
 * scheduler's ticker, a session end or a manual call, goes through here.
 */
export class DreamTrigger {
  private readonly sessions: SessionLog;

  constructor(private readonly options: DreamTriggerOptions) {
    this.sessions = new SessionLog(options.state.sessions, options.clock);
  }

  /** Records a completed session for the session gate. */
  recordSessionEnd(sessionId: string): Promise<unknown> {
    return this.sessions.record(sessionId);
  }

  async trigger(request: TriggerRequest = {}): Promise<TriggerResult> {
    const reason = request.reason ?? 'manual';
    const gates: GateOutcome[] = [];
    const blocked = (outcome: GateOutcome): TriggerResult => {
      gates.push(outcome);
      this.options.logger.info('Dream trigger blocked.', { trigger: reason, gate: outcome.gate, reason: outcome.reason });
      return { triggered: false, gate: outcome.gate, reason: outcome.reason, gates };
    };

    for (const check of [() => this.disabledGate(), () => this.timeAndSessionGates(), () => this.lockGate(), () => this.signalGate()]) {
      for (const outcome of await check()) {
        if (!outcome.passed) return blocked(outcome);
        gates.push(outcome);
      }
    }

    try {
      const report = await this.options.engine.run({ trigger: reason, ...(request.signal ? { signal: request.signal } : {}) });
      return { triggered: true, report, gates };
    } catch (error) {
      if (!isReverieError(error, 'LOCK_HELD')) throw error;
      // Another runner took the lock between the check and the run.
      const lockOutcome: GateOutcome = { gate: 'lock', passed: false, reason: error.message };
      this.options.logger.info('Dream trigger blocked.', { trigger: reason, gate: 'lock', reason: error.message });
      return {
        triggered: false,
        gate: 'lock',
        reason: error.message,
        gates: gates.map((gate) => (gate.gate === 'lock' ? lockOutcome : gate)),
      };
    }
  }

  private async disabledGate(): Promise<GateOutcome[]> {
    return this.options.enabled
      ? [{ gate: 'disabled', passed: true, reason: 'dreaming is enabled' }]
      : [{ gate: 'disabled', passed: false, reason: 'dreaming is disabled (withDreaming({ enabled: false }) or not configured)' }];
  }

  private async timeAndSessionGates(): Promise<GateOutcome[]> {
    const { minHours, minSessions } = this.options.gates ?? {};
    const notSet = (gate: GateName, option: string): GateOutcome => ({
      gate,
      passed: true,
      reason: `no ${gate} gate (gates.${option} is not set)`,
    });
    if (minHours === undefined && minSessions === undefined) return [notSet('time', 'minHours'), notSet('sessions', 'minSessions')];
    const last = lastSuccessfulRun((await this.options.state.ledger.read()).lines);
    const since = last === undefined ? undefined : new Date(last);
    const outcomes: GateOutcome[] = [];
    if (minHours === undefined) {
      outcomes.push(notSet('time', 'minHours'));
    } else {
      const hours = since === undefined ? Number.POSITIVE_INFINITY : (this.options.clock.now().getTime() - since.getTime()) / HOUR_MS;
      const passed = hours >= minHours;
      const ago = since === undefined ? 'no successful run yet' : `${hours.toFixed(1)} h since the last successful run (${last})`;
      outcomes.push({ gate: 'time', passed, reason: passed ? ago : `${ago}; the time gate needs ${minHours} h` });
      if (!passed) return outcomes;
    }
    if (minSessions === undefined) {
      outcomes.push(notSet('sessions', 'minSessions'));
    } else {
      const count = await this.sessions.countSince(since);
      const passed = count >= minSessions;
      const what = `${count} completed session(s) since ${since === undefined ? 'the first' : 'the last successful run'}`;
      outcomes.push({ gate: 'sessions', passed, reason: passed ? what : `${what}; the session gate needs ${minSessions}` });
    }
    return outcomes;
  }

  private async lockGate(): Promise<GateOutcome[]> {
    const state = await this.options.engine.lockState();
    if (state.status === 'free') return [{ gate: 'lock', passed: true, reason: 'the lock is free' }];
    const { holder } = state;
    const who = `process ${holder.pid} on ${holder.host} since ${holder.acquiredAt}${holder.runId ? ` (run ${holder.runId})` : ''}`;
    if (state.stale) return [{ gate: 'lock', passed: true, reason: `the lock held by ${who} is stale and will be taken over` }];
    return [{ gate: 'lock', passed: false, reason: `another run holds the lock: ${who}` }];
  }

  private async signalGate(): Promise<GateOutcome[]> {
    const options = this.options.gates?.signal;
    if (!options) return [{ gate: 'signal', passed: true, reason: 'no signal gate (gates.signal is not set)' }];
    const source = this.options.signalSource;
    if (!source) return [{ gate: 'signal', passed: true, reason: 'no signal source configured; the signal gate passes' }];
    const count = await source.unpromotedCandidates({ minRecallCount: options.minRecallCount, minScore: options.minScore });
    const what = `${count} unpromoted candidate(s) recalled ${options.minRecallCount}+ times with score ≥ ${options.minScore}`;
    const passed = count >= options.minUnpromoted;
    return [{ gate: 'signal', passed, reason: passed ? what : `${what}; the signal gate needs ${options.minUnpromoted}` }];
  }
}
