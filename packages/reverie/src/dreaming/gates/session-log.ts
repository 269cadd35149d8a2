import type { IClock } from '@reverie/core';
import type { AppendOnlyLog, SessionEnd } from '@reverie/dream-state';

/**
 * Completed agent sessions, one record per `onSessionEnd`, for the session gate (SPEC O3), in
 * the state store's `sessions` log (`_system/dreams/sessions.jsonl` for files).
 */
export class SessionLog {
  constructor(
    private readonly file: AppendOnlyLog<SessionEnd>,
    private readonly clock: IClock,
  ) {}

  async record(sessionId: string): Promise<SessionEnd> {
    const line = { sessionId, endedAt: this.clock.now().toISOString() };
    await this.file.append(line);
    return line;
  }

  /** Distinct sessions that ended after `since` (all of them when undefined). */
  async countSince(since: Date | undefined): Promise<number> {
    const { lines } = await this.file.read();
    const after = since === undefined ? lines : lines.filter((line) => Date.parse(line.endedAt) > since.getTime());
    return new Set(after.map((line) => line.sessionId)).size;
  }
}
