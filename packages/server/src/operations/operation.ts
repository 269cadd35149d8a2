import type { Reverie } from 'reverie';
import type { z } from 'zod';

/** Whether an operation only reads, or writes (refused by a read-only server). */
export type OperationAccess = 'read' | 'write';

/** Where an operation sits in the HTTP API: `{name}` in the path is filled from the input's field of that name. */
export interface HttpBinding {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** The status of a successful answer (default 200). */
  status?: number;
}

/** What an operation runs with, beside its input. */
export interface OperationContext {
  reverie: Reverie;
  /**
   * The name of the caller's working-memory session, `session/<name>`: for an MCP session (stdio:
   * one per process) a random `mcp-…` name of its own, never its transport's session id; over
   * HTTP the `X-Reverie-Session` header (never an `mcp-…` name).
   */
  session: string | undefined;
  /** Work an operation starts and does not wait for (a triggered dream cycle); the server waits for it when it closes. */
  background(task: (signal: AbortSignal) => Promise<unknown>): void;
}

/**
 * One operation of the server, served by both surfaces: an MCP tool called `name` and an HTTP
 * route at `http`. The input is validated with `input` before `run` sees it.
 */
export interface Operation<Input extends z.ZodObject = z.ZodObject, Output = unknown> {
  /** The MCP tool name (snake_case). */
  name: string;
  title: string;
  description: string;
  access: OperationAccess;
  input: Input;
  http: HttpBinding;
  /** True when the operation works in the caller's session (working memory): HTTP callers send `X-Reverie-Session`. */
  needsSession?: boolean;
  run(input: z.output<Input>, context: OperationContext): Promise<Output>;
}

/** An identity function that infers the input type of `run` from `input`. */
export function defineOperation<Input extends z.ZodObject, Output>(operation: Operation<Input, Output>): Operation<Input, Output> {
  return operation;
}
