import type { LanguageModelMiddleware } from 'ai';
import { z } from 'zod';
import { type ILogger, invalidOptions, optionIssues, sessionIdSchema } from '@reverie/core';
import { describeIssues } from '@reverie/core/internal';
import type { ActivityTracker } from '../activity/activity-tracker';
import { isBackgroundCall } from '../activity/background-calls';
import { type TurnContextBuilder, turnInputSchema } from '../context/turn-context-builder';

type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type PromptMessage = CallOptions['prompt'][number];
type GenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>;
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

/** `reverie.middleware(options)` and `withReverie(model, options)`. */
export const middlewareOptionsSchema = z
  .object({
    /** The conversation this model serves: recall is tracked and turns are recorded per session. */
    sessionId: sessionIdSchema,
    /** Who is speaking (default `'user'`); patrol and subagent turns see only their own namespace. */
    kind: z.enum(['user', 'patrol', 'subagent']).default('user'),
    /** The working-memory namespace (default `session/<sessionId>`; required for patrol and subagent turns). */
    namespace: z.string().optional(),
    /**
     * Whether Reverie replays the session's recent turns before the new message:
     * `'auto'` (default) when the call carries a single user message and no history of its own,
     * `'always'`, or `'never'` (the caller sends its own history, e.g. from `useChat`).
     */
    history: z.enum(['auto', 'always', 'never']).default('auto'),
  })
  .strict();
export type MiddlewareOptions = z.input<typeof middlewareOptionsSchema>;

export interface MiddlewareServices {
  context: TurnContextBuilder;
  activity: ActivityTracker;
  logger: ILogger;
}

/** One user message and what the steps answering it produced. */
interface Turn {
  system: string;
  replay: PromptMessage[];
  texts: string[];
  recorded: boolean;
}

/** What joins the text of the steps of one turn into the recorded reply. */
const STEP_SEPARATOR = '\n\n';

/**
 * SPEC E1: an AI SDK language-model middleware that gives every `generateText` / `streamText`
 * call of one session its Reverie context and records the conversation.
 *
 * - A call whose prompt ends with a user message starts a turn: `forTurn` gives the profile and
 *   the session memory (every entry recalled so far in the session, what bears on this message
 *   first, SPEC M11), lists the working-memory inventory, records the user message, and the
 *   middleware adds that context as a system message after the caller's own — so the model sees
 *   it on every call, whether Reverie replays the history or the caller sends it; the session's
 *   recent turns are replayed before the caller's messages when `history` says so.
 * - The later steps of a tool loop (the prompt ends with tool results) reuse the turn's context
 *   without recalling or recording again.
 * - The assistant's text of all the steps of a turn is recorded once, as one reply: when a step
 *   finishes for another reason than tool calls, when a stream is aborted or fails (what was
 *   produced so far), or, when a loop stopped on a tool-call step, before the next turn starts.
 * - Every call marks the user active, which preempts a running dream (SPEC D1).
 * - Calls Reverie makes for itself (dream passes, note expansion) pass through untouched (D16).
 */
export function createReverieMiddleware(services: MiddlewareServices, input: MiddlewareOptions): LanguageModelMiddleware {
  const options = parseMiddlewareOptions(input);
  const { context, activity, logger } = services;
  const turns = new WeakMap<CallOptions, Turn>();
  let current: Turn | undefined;

  const record = async (turn: Turn, partial = ''): Promise<void> => {
    if (turn.recorded) return;
    turn.recorded = true;
    const reply = [...turn.texts, partial].filter((text) => text.trim() !== '').join(STEP_SEPARATOR);
    if (reply === '') return;
    await context.recordReply(options.sessionId, reply);
  };

  const stepFinished = async (turn: Turn, text: string, toolCalls: boolean): Promise<void> => {
    if (text.trim() !== '') turn.texts.push(text);
    if (!toolCalls) await record(turn);
  };

  const safely = async (what: string, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      logger.warn(
        `Reverie could not record ${what} of session ${options.sessionId}: the next call of the session will not replay it, and the conversation log will not have it. The model call itself went on.`,
        { sessionId: options.sessionId, error: String(error) },
      );
    }
  };

  return {
    specificationVersion: 'v3',

    async transformParams({ params }) {
      if (isBackgroundCall()) return params;
      const last = params.prompt[params.prompt.length - 1];
      let turn: Turn | undefined;
      if (last?.role === 'user') {
        if (current) await safely('the previous reply', () => record(current!));
        const own = params.prompt.filter((message) => message.role !== 'system');
        const replayWanted = options.history === 'always' || (options.history === 'auto' && own.length === 1);
        const built = await context.forTurn({
          sessionId: options.sessionId,
          message: userText(last),
          kind: options.kind,
          replay: replayWanted,
          ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
        });
        turn = {
          system: built.systemPrompt,
          replay: built.messages.slice(0, -1).map(toPromptMessage),
          texts: [],
          recorded: false,
        };
        current = turn;
      } else if (current && !current.recorded) {
        turn = current;
      }
      if (!turn) return params;
      const system = params.prompt.filter((message) => message.role === 'system');
      const rest = params.prompt.filter((message) => message.role !== 'system');
      const added: PromptMessage[] = turn.system === '' ? [] : [{ role: 'system', content: turn.system }];
      const transformed: CallOptions = { ...params, prompt: [...system, ...added, ...turn.replay, ...rest] };
      turns.set(transformed, turn);
      return transformed;
    },

    async wrapGenerate({ doGenerate, params }) {
      if (isBackgroundCall()) return doGenerate();
      const turn = turns.get(params);
      const end = activity.begin();
      let result: GenerateResult;
      try {
        result = await doGenerate();
      } catch (error) {
        if (turn) await safely('the reply of a failed call', () => record(turn));
        throw error;
      } finally {
        end();
      }
      if (turn) {
        const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        await safely('the reply', () => stepFinished(turn, text, result.finishReason.unified === 'tool-calls'));
      }
      return result;
    },

    async wrapStream({ doStream, params }) {
      if (isBackgroundCall()) return doStream();
      const turn = turns.get(params);
      const end = activity.begin();
      let result: StreamResult;
      try {
        result = await doStream();
      } catch (error) {
        end();
        if (turn) await safely('the reply of a failed call', () => record(turn));
        throw error;
      }
      const reader = result.stream.getReader();
      let text = '';
      let toolCalls = false;
      let settled = false;
      const settle = async (work: () => Promise<void>) => {
        if (settled) return;
        settled = true;
        params.abortSignal?.removeEventListener('abort', onAbort);
        end();
        if (turn) await safely('the reply', work);
      };
      // An aborted call keeps what was produced so far, whether or not the provider ends its stream.
      const onAbort = () => void settle(() => record(turn!, text));
      params.abortSignal?.addEventListener('abort', onAbort, { once: true });
      const stream = new ReadableStream<StreamPart>({
        async pull(controller) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            await settle(() => record(turn!, text));
            controller.error(error);
            return;
          }
          if (next.done) {
            await settle(() => stepFinished(turn!, text, toolCalls));
            controller.close();
            return;
          }
          const part = next.value;
          if (part.type === 'text-delta') text += part.delta;
          else if (part.type === 'finish') toolCalls = part.finishReason.unified === 'tool-calls';
          controller.enqueue(part);
        },
        async cancel(reason) {
          await settle(() => record(turn!, text));
          await reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}

/** Validates middleware options; INVALID_OPTIONS names every problem. */
export function parseMiddlewareOptions(input: MiddlewareOptions): z.output<typeof middlewareOptionsSchema> {
  const result = middlewareOptionsSchema.safeParse(input);
  if (!result.success) {
    throw invalidOptions(
      `Invalid Reverie middleware options — ${describeIssues(result.error)}. Pass { sessionId } (a non-empty id of the conversation), and optionally kind, namespace and history.`,
      optionIssues(result.error),
    );
  }
  const { sessionId, kind, namespace } = result.data;
  const turn = turnInputSchema.safeParse({ sessionId, message: '', kind, ...(namespace === undefined ? {} : { namespace }) });
  if (!turn.success) {
    throw invalidOptions(`Invalid Reverie middleware options — ${describeIssues(turn.error)}.`, optionIssues(turn.error));
  }
  return result.data;
}

/** The text of a user message (files and images left out). */
function userText(message: Extract<PromptMessage, { role: 'user' }>): string {
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

function toPromptMessage(message: { role: string; content: unknown }): PromptMessage {
  const text = typeof message.content === 'string' ? message.content : '';
  return message.role === 'assistant'
    ? { role: 'assistant', content: [{ type: 'text', text }] }
    : { role: 'user', content: [{ type: 'text', text }] };
}
