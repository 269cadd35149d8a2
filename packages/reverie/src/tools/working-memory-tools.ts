import { z } from 'zod';
import {
  type ILogger,
  type IWorkingMemory,
  namespaceOf,
  parseRecord,
  ReverieError,
  ReverieValidationError,
  type WorkingMemoryEntry,
} from '@reverie/core';
import { pathNameProblem, WORKING_MEMORY_KEY_RULES } from '@reverie/core/internal';
import { defineTool } from './define-tool';
import { answerOrExplain, type ToolError } from './tool-error';

/** The first segment of every namespace: who owns the scratch space. */
export const WORKING_MEMORY_NAMESPACE_KINDS = ['session', 'patrol', 'subagent'] as const;

export interface WorkingMemoryToolServices {
  workingMemory: IWorkingMemory;
  /** The caller's own namespace, where every write goes: `session/<id>`, `patrol/<task>` or `subagent/<task>`. */
  namespace: string;
  /** Where failures that are not the model's doing are recorded. */
  logger?: ILogger;
}

/** An entry as the tools show it when listing or searching: everything but the value. */
export interface WorkingMemoryListing {
  key: string;
  expiresAt: string;
  category?: string;
  tags: string[];
}

export type WorkingMemoryReadResult =
  | ({ found: true; value: string } & WorkingMemoryListing)
  | { found: false; key: string; message: string };

const BROWSE_PREFIX_RULES = { ...WORKING_MEMORY_KEY_RULES, minSegments: 1 };

/**
 * SPEC M8: working-memory tools bound to one namespace. Writes land only in that namespace (a
 * full key naming another one is a NAMESPACE_VIOLATION); reads take a plain key in the own
 * namespace or a full key anywhere; listing and search cover the own namespace unless the
 * model names another prefix. Listings and search results never carry values.
 */
export function createWorkingMemoryTools({ workingMemory, namespace, logger }: WorkingMemoryToolServices) {
  const own = validateNamespace(namespace);
  const explain = <T>(work: () => Promise<T>) =>
    answerOrExplain(work, (error) =>
      logger?.warn('A working-memory tool failed; the model was told with a tool error.', { namespace: own, error: String(error) }),
    );
  const writeKey = (key: string): string => {
    if (!isFullKey(key)) return `${own}/${key}`;
    if (namespaceOf(key) === own) return key;
    const name = key.split('/').slice(2).join('/');
    throw new ReverieError(
      'NAMESPACE_VIOLATION',
      `Cannot write "${key}": it belongs to the namespace "${namespaceOf(key)}", and writes go only to your own namespace "${own}". ` +
        `Save it under a plain key such as "${name}" (stored as "${own}/${name}").`,
      { details: { key, namespace: own } },
    );
  };
  const readKey = (key: string): string => (isFullKey(key) ? key : `${own}/${key}`);

  const saveInput = z.object({
    key: z.string().min(1).describe(`A short name such as "inbox" or "draft-reply"; it is stored as "${own}/<key>".`),
    data: z.string().describe('The text to keep, e.g. a large tool result or a partial result to pick up later.'),
    ttl_minutes: z.number().positive().nullish().describe('Minutes until the entry expires (default 5).'),
    category: z.string().nullish().describe('Optional slash-separated category, e.g. "email".'),
    tags: z.array(z.string()).nullish().describe('Optional keywords for search_working_memory.'),
  });
  const getInput = z.object({
    key: z
      .string()
      .min(1)
      .describe(`A plain key ("inbox") reads your namespace "${own}"; a full key ("subagent/t1/results") reads any namespace.`),
  });
  const namespaceParam = z
    .string()
    .nullish()
    .describe(`Key prefix to browse instead of your own namespace "${own}", e.g. "patrol" or "subagent/t1".`);
  const listInput = z.object({ namespace: namespaceParam });
  const searchInput = z.object({
    query: z.string().nullish().describe('Words to look for; leave out to get the newest entries.'),
    category: z.string().nullish().describe('Only entries in this category or below it.'),
    tags: z.array(z.string()).nullish().describe('Only entries that carry every one of these tags.'),
    namespace: namespaceParam,
  });

  const save_to_working_memory = defineTool({
    description:
      'Keep data for a short while without putting it in the conversation: big tool results, partial work, hand-offs. ' +
      `Entries go to your namespace "${own}" and expire after ttl_minutes (default 5).`,
    inputSchema: saveInput,
    execute: (input): Promise<{ key: string; expiresAt: string; status: 'saved' } | ToolError> =>
      explain(async () => {
        const { key, data, ttl_minutes, category, tags } = parseRecord(saveInput, input, 'save_to_working_memory input');
        const entry = await workingMemory.set(writeKey(key), data, {
          ...(ttl_minutes == null ? {} : { ttlMs: Math.max(1, Math.round(ttl_minutes * 60_000)) }),
          ...(category == null ? {} : { category }),
          ...(tags == null ? {} : { tags }),
        });
        return { key: entry.key, expiresAt: entry.expiresAt, status: 'saved' };
      }),
  });

  const get_from_working_memory = defineTool({
    description: 'Read one working-memory entry, value included: a plain key from your namespace, or a full key from any namespace.',
    inputSchema: getInput,
    execute: (input): Promise<WorkingMemoryReadResult | ToolError> =>
      explain(async () => {
        const key = readKey(parseRecord(getInput, input, 'get_from_working_memory input').key);
        const entry = await workingMemory.get(key);
        if (entry === undefined) {
          return { found: false, key, message: `Nothing is stored at "${key}": the key is wrong or the entry has expired.` };
        }
        return { found: true, ...listing(entry), value: entry.value };
      }),
  });

  const list_working_memory = defineTool({
    description:
      `List the working-memory keys of your namespace "${own}" (or of another prefix) with their expiry, category and tags. ` +
      'Values are not included; read one with get_from_working_memory.',
    inputSchema: listInput,
    execute: (input): Promise<{ prefix: string; entries: WorkingMemoryListing[] } | ToolError> =>
      explain(async () => {
        const prefix = browsePrefix(parseRecord(listInput, input, 'list_working_memory input').namespace, own);
        return { prefix, entries: (await workingMemory.list(prefix)).map(listing) };
      }),
  });

  const search_working_memory = defineTool({
    description:
      `Search working memory by keywords, category or tags, in your namespace "${own}" unless another prefix is given. ` +
      'Results carry keys, not values; read one with get_from_working_memory.',
    inputSchema: searchInput,
    execute: (input): Promise<Array<WorkingMemoryListing & { score: number }> | ToolError> =>
      explain(async () => {
        const { query, category, tags, namespace: browse } = parseRecord(searchInput, input, 'search_working_memory input');
        const results = await workingMemory.search({
          prefix: browsePrefix(browse, own),
          ...(query == null ? {} : { text: query }),
          ...(category == null ? {} : { category }),
          ...(tags == null ? {} : { tags }),
        });
        return results.map(({ entry, score }) => ({ ...listing(entry), score: Math.round(score * 1000) / 1000 }));
      }),
  });

  return { save_to_working_memory, get_from_working_memory, list_working_memory, search_working_memory };
}

export type WorkingMemoryTools = ReturnType<typeof createWorkingMemoryTools>;

/** True for a key that names its namespace: a known kind, a name, and at least one more segment. */
function isFullKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length >= 3 && (WORKING_MEMORY_NAMESPACE_KINDS as readonly string[]).includes(segments[0]!);
}

function validateNamespace(namespace: string): string {
  const segments = typeof namespace === 'string' ? namespace.split('/') : [];
  const problem =
    typeof namespace !== 'string'
      ? 'it is not a string'
      : segments.length !== 2
        ? `it has ${segments.length} segment(s), not 2`
        : !(WORKING_MEMORY_NAMESPACE_KINDS as readonly string[]).includes(segments[0]!)
          ? `its first segment "${segments[0]}" is not one of ${WORKING_MEMORY_NAMESPACE_KINDS.join(', ')}`
          : pathNameProblem(`${namespace}/entry`, WORKING_MEMORY_KEY_RULES);
  if (problem !== undefined) {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Invalid working-memory namespace ${JSON.stringify(namespace)}: ${problem}. Use "session/<id>", "patrol/<task>" or "subagent/<task>".`,
      { details: { namespace, problem } },
    );
  }
  return namespace;
}

/** The prefix to list or search: the own namespace, or the one the model asked for. */
function browsePrefix(requested: string | null | undefined, own: string): string {
  if (requested == null) return own;
  const prefix = requested.endsWith('/') ? requested.slice(0, -1) : requested;
  const problem = pathNameProblem(prefix, BROWSE_PREFIX_RULES);
  if (problem !== undefined) {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Invalid namespace ${JSON.stringify(requested)}: ${problem}. Give a key prefix such as "patrol" or "subagent/t1".`,
      { details: { namespace: requested, problem } },
    );
  }
  return prefix;
}

function listing(entry: WorkingMemoryEntry): WorkingMemoryListing {
  return {
    key: entry.key,
    expiresAt: entry.expiresAt,
    ...(entry.category === undefined ? {} : { category: entry.category }),
    tags: entry.tags,
  };
}
