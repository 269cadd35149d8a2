import { ReverieValidationError } from '@reverie/core';
import type { ModelGateway } from '../gateway/model-gateway';
import type { DreamPass, DreamServices } from './dream-types';
import { DREAM_PHASES, type RunRequest } from './run-request';
import { describeServiceNeeds } from './service-needs';

/**
 * The engine's passes in cycle order, judged against the services it has: which of them a
 * request selects, which cannot run and why, and how far the readers of the conversation log
 * and of the memory change feed hold the others back.
 */
export class PassRoster {
  constructor(
    private readonly services: DreamServices,
    readonly passes: readonly DreamPass[],
  ) {}

  /** The passes, by name, in cycle order. */
  get names(): string[] {
    return this.passes.map((pass) => pass.name);
  }

  select(request: RunRequest): DreamPass[] {
    if (request.phase !== undefined && !DREAM_PHASES.includes(request.phase)) {
      throw new ReverieValidationError(
        'UNKNOWN_PHASE',
        `Unknown phase ${JSON.stringify(request.phase)}: use one of ${DREAM_PHASES.join(', ')}.`,
        {
          details: { phase: request.phase, phases: [...DREAM_PHASES] },
        },
      );
    }
    const names = request.pass === undefined ? request.passes : [...(request.passes ?? []), request.pass];
    for (const name of names ?? []) {
      if (!this.passes.some((pass) => pass.name === name)) {
        throw new ReverieValidationError('UNKNOWN_PASS', `Unknown pass ${JSON.stringify(name)}: the passes are ${this.names.join(', ')}.`, {
          details: { pass: name, passes: this.names },
        });
      }
    }
    return this.passes.filter(
      (pass) => (request.phase === undefined || pass.phase === request.phase) && (names === undefined || names.includes(pass.name)),
    );
  }

  /** The pass a saved plan names; UNKNOWN_PASS when this engine does not have it. */
  byName(name: string): DreamPass {
    const pass = this.passes.find((candidate) => candidate.name === name);
    if (!pass) {
      throw new ReverieValidationError(
        'UNKNOWN_PASS',
        `The plan names pass ${JSON.stringify(name)}, which this engine does not have (its passes: ${this.names.join(', ')}). Apply it with the configuration that made it, or make a new plan.`,
        {
          details: { pass: name, passes: this.names },
        },
      );
    }
    return pass;
  }

  /** Why the pass cannot run in this cycle (a missing service, no model), or undefined. */
  skipReason(pass: DreamPass, gateway: ModelGateway | undefined): string | undefined {
    const missing = this.missingServices(pass);
    if (missing !== undefined) return missing;
    if (pass.model === 'required' && !gateway) return 'needs a language model';
    return undefined;
  }

  /** `needs …` when a service the pass requires is not configured, or undefined. */
  missingServices(pass: DreamPass): string | undefined {
    const missing = pass.requires.filter((service) => this.services[service] === undefined);
    return missing.length > 0 ? describeServiceNeeds(missing) : undefined;
  }

  /** The lowest read position of every other pass that reads the conversation log with a cursor. */
  async conversationLogHorizon(asking: DreamPass): Promise<number> {
    let horizon = Number.POSITIVE_INFINITY;
    for (const pass of this.passes) {
      // A reader that can never run here (a missing service, no model) holds nothing back.
      if (pass === asking || !pass.conversationLogReadThrough || !this.canEverRun(pass)) continue;
      horizon = Math.min(horizon, await pass.conversationLogReadThrough(this.services));
    }
    return horizon;
  }

  /** The memory change feed cursors of every pass that reads the feed and can ever run here. */
  async memoryFeedCursors(): Promise<string[]> {
    const keep: string[] = [];
    for (const pass of this.passes) {
      if (pass.memoryFeedCursors && this.canEverRun(pass)) keep.push(...(await pass.memoryFeedCursors(this.services)));
    }
    return keep;
  }

  private canEverRun(pass: DreamPass): boolean {
    if (pass.requires.some((service) => this.services[service] === undefined)) return false;
    return pass.model !== 'required' || this.services.model !== undefined;
  }
}
