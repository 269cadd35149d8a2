import { categorySlug, importedEntry, isoTimestamp } from './imported-entry';
import { field, parseJsonDocument } from './json-document';
import type { ParsedImport } from './parse-export';

/** The memories of a mem0 answer: a list, or an object with `results` (or `memories`) holding it. */
function mem0Items(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  const list = field(value, 'results') ?? field(value, 'memories');
  return Array.isArray(list) ? list : undefined;
}

/** A metadata value as text: strings as they are, anything else as JSON. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * SPEC B15: mem0's memory list as its API and SDK return it (`get_all`: a list, or `{ results }`):
 * each item's `memory` is an entry's content; `created_at` and `updated_at` its times; its
 * `categories` (or `metadata.category`) its category and tags; `id`, `user_id`, `agent_id` and the
 * other `metadata` fields are kept as metadata under `mem0.`. An item without a `memory` is a
 * problem named by its place in the list. Pure but for new ids.
 */
export function parseMem0Memories(text: string, source: string, now: string): ParsedImport {
  const parsed = parseJsonDocument(text);
  if ('problem' in parsed) return { records: [], problems: [parsed.problem] };
  const items = mem0Items(parsed.value);
  if (!items) return { records: [], problems: [{ message: 'not a mem0 memory list: expected a list, or an object with "results"' }] };
  const result: ParsedImport = { records: [], problems: [] };
  for (const [index, item] of items.entries()) {
    const content = field(item, 'memory');
    const where = `item ${index + 1}${typeof field(item, 'id') === 'string' ? ` (id ${String(field(item, 'id'))})` : ''}`;
    if (typeof content !== 'string' || content.trim() === '') {
      result.problems.push({ message: `${where}: no "memory" text` });
      continue;
    }
    const categories = field(item, 'categories');
    const tags = Array.isArray(categories) ? categories.filter((tag): tag is string => typeof tag === 'string').map(categorySlug) : [];
    const metadata = new Map<string, string>();
    for (const name of ['id', 'user_id', 'agent_id', 'app_id', 'run_id']) {
      const value = field(item, name);
      if (typeof value === 'string') metadata.set(`mem0.${name}`, value);
    }
    const extra = field(item, 'metadata');
    if (extra !== null && typeof extra === 'object' && !Array.isArray(extra)) {
      for (const [name, value] of Object.entries(extra)) metadata.set(`mem0.metadata.${name}`.slice(0, 128), asText(value));
    }
    const named = field(extra, 'category');
    const entry = importedEntry(
      {
        content,
        category: typeof named === 'string' ? categorySlug(named) || undefined : tags[0] || undefined,
        tags: tags.filter((tag) => tag !== ''),
        metadata,
        createdAt: isoTimestamp(field(item, 'created_at')),
        updatedAt: isoTimestamp(field(item, 'updated_at')),
      },
      source,
      now,
    );
    if ('problem' in entry) result.problems.push({ message: `${where}: ${entry.problem}` });
    else result.records.push({ type: 'memory', entry });
  }
  return result;
}
