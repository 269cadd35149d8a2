import type { generateText, LanguageModel, ModelMessage, TelemetrySettings } from 'ai';
import type { z } from 'zod';
import { type ILogger, invalidOptions, ReverieError, ReverieModelReplyError } from '@reverie/core';
import { describeIssues, extractJsonObject } from '@reverie/core/internal';
import type { GatewayRequest, ModelGatewayLike } from '../engine/dream-types';
import { type LoadedDirective, loadDirective } from './directives';

export interface ModelGatewayOptions {
  model: LanguageModel;
  /** Where the directive files live (SPEC D13); without it the built-in directives are used. */
  dataPath?: string | undefined;
  logger: ILogger;
  /** Saves a prompt or reply in the run folder (SPEC O7). */
  artifact: (name: string, content: string) => Promise<void>;
  /**
   * Retries of a failed model call that the AI SDK considers retryable (rate limits, server
   * errors), with its backoff. Default 2. Invalid replies get one correction request instead;
   * aborted calls are never retried.
   */
  maxRetries?: number;
  /**
   * The longest reply, in characters, that is read at all (default 100,000). A longer reply is
   * refused before it is parsed, and the model is asked once for a shorter one (SPEC B11).
   */
  maxReplyChars?: number;
  /**
   * SPEC E3: the host's AI SDK telemetry settings, given to every call as
   * `experimental_telemetry`, with the pass's name in `metadata['reverie.pass']`.
   */
  telemetry?: TelemetrySettings;
}

const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_REPLY_CHARS = 100_000;
/** Prompts and replies a gateway lets be written at once while the pass goes on (see `ModelGateway.save`). */
const MAX_UNWRITTEN_ARTIFACTS = 4;

type Validation<T> = { ok: true; value: T } | { ok: false; problems: string };

interface ModelReply {
  text: string;
  /** The artifact name the reply was saved under. */
  artifact: string;
  /** True when the model stopped because it reached its output limit. */
  cutOff: boolean;
}

let aiSdk: Promise<typeof import('ai')> | undefined;

/**
 * The AI SDK: it loads with the first model call, not with `import('reverie')`
 * (docs/architecture.md), and is resolved once, not at every call.
 */
function loadAiSdk(): Promise<typeof import('ai')> {
  aiSdk ??= import('ai').catch((error: unknown) => {
    aiSdk = undefined;
    throw error;
  });
  return aiSdk;
}

/**
 * The one way passes talk to the model (SPEC D15). Each `ask` sends the pass's directive (the
 * data directory's file, or the built-in text) as system prompt and the rendered data as user
 * prompt, takes the JSON object out of the reply, validates it with the pass's schema, and on
 * failure asks once for a corrected reply. Every prompt and reply is saved as an artifact
 * (`<pass>.<n>.prompt.md`, `<pass>.<n>.reply.md`, n counting this gateway's calls per pass).
 * Those writes go on while the model answers and the pass works on the reply; `settle()` waits
 * for them, and the engine calls it when a pass has planned, before its plan is recorded.
 */
export class ModelGateway implements ModelGatewayLike {
  private readonly model: LanguageModel;
  private readonly dataPath: string | undefined;
  private readonly logger: ILogger;
  private readonly artifact: (name: string, content: string) => Promise<void>;
  private readonly maxRetries: number;
  private readonly maxReplyChars: number;
  private readonly telemetry: TelemetrySettings | undefined;
  private readonly refused: string[] = [];
  private readonly callsPerPass = new Map<string, number>();
  /** Directives read so far, by file and built-in text: each is read once per gateway (one run). */
  private readonly directives = new Map<string, Promise<LoadedDirective>>();
  private readonly totals = { inputTokens: 0, outputTokens: 0, calls: 0 };
  /** Artifact writes not waited for yet (see `settle`), oldest first; they never reject… */
  private writes: Array<Promise<void>> = [];
  /** …the first of them that failed keeps its error here. */
  private writeFailure: { error: unknown } | undefined;

  constructor(options: ModelGatewayOptions) {
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw invalidOptions(`maxRetries must be a whole number of at least 0, got ${String(options.maxRetries)}.`, [
        { path: 'maxRetries', message: 'must be a whole number of at least 0' },
      ]);
    }
    const maxReplyChars = options.maxReplyChars ?? DEFAULT_MAX_REPLY_CHARS;
    if (!Number.isInteger(maxReplyChars) || maxReplyChars < 1_000 || maxReplyChars > 10_000_000) {
      throw invalidOptions(`maxReplyChars must be a whole number from 1000 to 10000000, got ${String(options.maxReplyChars)}.`, [
        { path: 'maxReplyChars', message: 'must be a whole number from 1000 to 10000000' },
      ]);
    }
    this.maxReplyChars = maxReplyChars;
    this.telemetry = options.telemetry;
    this.model = options.model;
    this.dataPath = options.dataPath;
    this.logger = options.logger;
    this.artifact = options.artifact;
    this.maxRetries = maxRetries;
  }

  /** Tokens spent by every call that returned, corrections included; a snapshot. */
  get usage(): { inputTokens: number; outputTokens: number; calls: number } {
    return { ...this.totals };
  }

  /**
   * Waits for the prompts and replies saved so far to be written; throws the first write's error
   * if one failed (once: the next call starts afresh).
   */
  async settle(): Promise<void> {
    const writes = this.writes;
    this.writes = [];
    await Promise.all(writes);
    const failure = this.writeFailure;
    this.writeFailure = undefined;
    if (failure) throw failure.error;
  }

  /** Every reply refused so far (too long, no JSON object, not the contract), one line each, in order. */
  get refusals(): readonly string[] {
    return this.refused;
  }

  async ask<T>(request: GatewayRequest<T>): Promise<T> {
    const directive = await this.directive(request);
    if (directive.source === 'file') this.logger.debug(`Pass ${request.pass} uses the directive file ${request.directiveFile}.`);

    const conversation: ModelMessage[] = [{ role: 'user', content: request.data }];
    const first = await this.call(request, directive.text, conversation);
    const firstCheck = this.validate(request, first);
    if (firstCheck.ok) return firstCheck.value;

    this.logger.warn(`The model's reply to pass ${request.pass} was invalid; asking once for a correction.`, {
      problems: firstCheck.problems,
      artifact: first.artifact,
    });
    const correction: ModelMessage[] = [
      ...conversation,
      { role: 'assistant', content: first.text },
      { role: 'user', content: correctionRequest(firstCheck.problems) },
    ];
    const second = await this.call(request, directive.text, correction);
    const secondCheck = this.validate(request, second);
    if (secondCheck.ok) return secondCheck.value;

    throw new ReverieModelReplyError(
      `The model's reply to pass ${request.pass} is still invalid after one correction: ${secondCheck.problems}. ` +
        `The reply is saved as ${second.artifact} in the run folder; a more capable model or a clearer directive (${request.directiveFile}) may help.`,
      {
        details: {
          pass: request.pass,
          problems: secondCheck.problems,
          replyArtifact: second.artifact,
          replyArtifacts: [first.artifact, second.artifact],
          directiveSource: directive.source,
        },
      },
    );
  }

  /**
   * The pass's directive, read at its first call of the run: an edit of the file during a run
   * applies from the next run, and a run with many calls reads it once. A failed read is not
   * kept, so the next call reports it again.
   */
  private directive(request: GatewayRequest<unknown>): Promise<LoadedDirective> {
    const key = `${request.directiveFile}\u0000${request.builtInDirective}`;
    let loaded = this.directives.get(key);
    if (!loaded) {
      loaded = loadDirective(this.dataPath, request.directiveFile, request.builtInDirective);
      loaded.catch(() => this.directives.delete(key));
      this.directives.set(key, loaded);
    }
    return loaded;
  }

  private async call<T>(request: GatewayRequest<T>, system: string, messages: ModelMessage[]): Promise<ModelReply> {
    if (request.signal?.aborted) throw abortedError(request.pass, request.signal.reason);
    const n = (this.callsPerPass.get(request.pass) ?? 0) + 1;
    this.callsPerPass.set(request.pass, n);
    await this.save(`${request.pass}.${n}.prompt.md`, renderPrompt(system, messages));

    const ai = await loadAiSdk();
    let result: Awaited<ReturnType<typeof generateText>>;
    try {
      result = await ai.generateText({
        model: this.model,
        system,
        messages,
        maxRetries: this.maxRetries,
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
        ...(request.signal ? { abortSignal: request.signal } : {}),
        ...(this.telemetry === undefined
          ? {}
          : { experimental_telemetry: { ...this.telemetry, metadata: { ...this.telemetry.metadata, 'reverie.pass': request.pass } } }),
      });
    } catch (error) {
      if (request.signal?.aborted) throw abortedError(request.pass, error);
      throw new ReverieError(
        'MODEL_UNAVAILABLE',
        `The model call for pass ${request.pass} failed: ${(error as Error).message}. Check the model's configuration, credentials and availability.`,
        { cause: error, details: { pass: request.pass } },
      );
    }

    this.totals.inputTokens += result.totalUsage.inputTokens ?? 0;
    this.totals.outputTokens += result.totalUsage.outputTokens ?? 0;
    this.totals.calls += 1;
    const artifact = `${request.pass}.${n}.reply.md`;
    const oversized = result.text.length > this.maxReplyChars;
    // An oversized reply is kept only up to the limit: a hostile reply must not fill the disk either.
    await this.save(
      artifact,
      oversized
        ? `${result.text.slice(0, this.maxReplyChars)}\n\n[… ${result.text.length - this.maxReplyChars} more characters not kept]\n`
        : result.text,
    );
    return { text: result.text, artifact, cutOff: result.finishReason === 'length' };
  }

  /**
   * Starts writing an artifact; `settle` waits for it and reports its failure. Returns once at
   * most `MAX_UNWRITTEN_ARTIFACTS` are still being written, so a pass whose model answers faster
   * than the disk takes the artifacts does not pile them up in memory.
   */
  private async save(name: string, content: string): Promise<void> {
    while (this.writes.length >= MAX_UNWRITTEN_ARTIFACTS) await this.writes.shift();
    this.writes.push(
      this.artifact(name, content).catch((error: unknown) => {
        this.writeFailure ??= { error };
      }),
    );
  }

  /** Size check, then extraction and the schema (SPEC B11); a refusal is recorded and says what to fix. */
  private validate<T>(request: GatewayRequest<T>, reply: ModelReply): Validation<T> {
    const checked = validateReply(request.schema, reply.text, this.maxReplyChars);
    if (checked.ok) return checked;
    const problems = reply.cutOff
      ? `${checked.problems} (the reply was cut off at the output limit: propose fewer changes per reply)`
      : checked.problems;
    this.refused.push(`${request.pass}: reply ${reply.artifact} refused: ${problems}`);
    return { ok: false, problems };
  }
}

/**
 * The first stages every reply goes through, in order: the size check (before any parsing),
 * the linear extraction of its JSON object, the pass's schema. Pure.
 */
export function validateReply<T>(schema: z.ZodType<T>, text: string, maxChars: number = DEFAULT_MAX_REPLY_CHARS): Validation<T> {
  if (text.length > maxChars) {
    return {
      ok: false,
      problems: `the reply is ${text.length} characters long, more than the ${maxChars} allowed; reply with a shorter JSON object`,
    };
  }
  const json = extractJsonObject(text);
  if (json === undefined) return { ok: false, problems: 'the reply holds no JSON object' };
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: describeIssues(parsed.error) };
}

/** The follow-up message asking for a corrected reply. Pure. */
export function correctionRequest(problems: string): string {
  return [
    `Your previous reply could not be used: ${problems}.`,
    'Reply again with only the corrected JSON object in the format the instructions describe, with nothing before or after it.',
  ].join('\n');
}

/** The prompt artifact: the system prompt, then each message under its role. */
function renderPrompt(system: string, messages: ModelMessage[]): string {
  const sections = [`## system\n\n${system}`];
  for (const message of messages) {
    const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content, null, 2);
    sections.push(`## ${message.role}\n\n${content}`);
  }
  return `${sections.join('\n\n')}\n`;
}

function abortedError(pass: string, cause: unknown): ReverieError {
  return new ReverieError('ABORTED', `The model call for pass ${pass} was aborted: the run was cancelled or a user turn preempted it.`, {
    cause,
    details: { pass },
  });
}
