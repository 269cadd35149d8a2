import { z } from 'zod';
import type { IClock } from '@reverie/core';
import { JsonlFile } from '../jsonl/jsonl-file';
import { sessionsPath } from '../runs/run-paths';

export const sessionEndSchema = z.object({ sessionId: z.string().min(1), endedAt: z.string() });
export type SessionEnd = z.infer<typeof sessionEndSchema>;

/**
 * Completed agent sessions at `_system/dreams/sessions.jsonl`, one line per `onSessionEnd`, for
 * the session gate (SPEC O3).
 */
export class SessionLog {
  private readonly file: JsonlFile<SessionEnd>;

  constructor(
    dataPath: string,
    private readonly clock: IClock,
  ) {
    this.file = new JsonlFile(sessionsPath(dataPath), sessionEndSchema);
  }

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
