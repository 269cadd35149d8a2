import { DeclaredPass } from '../../engine/declared-pass';
import type { DreamServices, ModelGatewayLike, PassContext, PassPlan, PassSkip } from '../../engine/dream-types';
import { describeServiceNeeds } from '../../engine/service-needs';
import type { LogCursor } from './log-cursor';
import { type LogWindow, readLogWindow } from './read-log-window';

/**
 * What the passes that read the conversation log share (SPEC D16–D18; episode extraction, skill
 * gap, preference inference): REM, a model required, the services they need checked in order, the
 * window of turns after their cursor read (`readLogWindow`), the cursor moved only in `commit`,
 * and the selection each run records as an artifact. A pass says what it does with the window in
 * `planWindow`.
 */
export abstract class LogReadingPass<K extends string> extends DeclaredPass {
  abstract readonly options: { maxTurnsPerRun: number };
  protected abstract readonly cursor: LogCursor<K>;

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    for (const service of this.requires) if (!context.services[service]) return { skipped: describeServiceNeeds([service]) };
    const gateway = context.gateway;
    if (!gateway) return { skipped: 'needs a language model' };
    const window = await readLogWindow(
      context.services.conversationLog!,
      await this.cursor.position(context.services.state.cursors),
      this.options.maxTurnsPerRun,
    );
    return this.planWindow(context, gateway, window);
  }

  /** The plan for the turns read after the cursor (none, possibly). */
  protected abstract planWindow(context: PassContext, gateway: ModelGatewayLike, window: LogWindow): Promise<PassPlan>;

  /** Moves the cursor to the last turn the applied plan read. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    await this.cursor.commit(services.state.cursors, data);
  }

  /** Keeps what the run read and sent as `<pass>.selection.json` in the run's records. */
  protected async recordSelection(context: PassContext, selection: object): Promise<void> {
    await context.artifact(`${this.name}.selection.json`, `${JSON.stringify(selection, null, 2)}\n`);
  }
}
