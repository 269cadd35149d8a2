import type { Reverie } from 'reverie';
import type { Operation, OperationContext } from './operation';
import { runOperation } from './run-operation';

/**
 * The operations of one served Reverie, as both surfaces call them: read-only or not, and the
 * background work they start (a triggered dream cycle), which `close()` aborts and waits for.
 */
export class OperationHost {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly controller = new AbortController();

  constructor(
    readonly reverie: Reverie,
    readonly operations: readonly Operation[],
    readonly readOnly: boolean,
    private readonly report: (error: unknown) => void,
  ) {}

  /** Runs `operation` with `input` for the caller's `session` (see OperationContext). */
  run(operation: Operation, input: unknown, session: string | undefined): Promise<unknown> {
    const context: OperationContext = { reverie: this.reverie, session, background: (task) => this.track(task) };
    return runOperation(operation, input, context, this.readOnly);
  }

  /** Aborts the background work and waits until it has stopped. */
  async close(): Promise<void> {
    this.controller.abort(new Error('the server is shutting down'));
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track(task: (signal: AbortSignal) => Promise<unknown>): void {
    const running = task(this.controller.signal).catch((error: unknown) => this.report(error));
    this.pending.add(running);
    void running.finally(() => this.pending.delete(running));
  }
}
