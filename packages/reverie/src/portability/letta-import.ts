import { categorySlug, type ForeignMemory, importedEntry, isoTimestamp } from './imported-entry';
import { field, parseJsonDocument } from './json-document';
import type { ParsedImport } from './parse-export';

/** The objects of a list field, or none. */
const objects = (value: unknown): unknown[] =>
  Array.isArray(value) ? value.filter((item) => item !== null && typeof item === 'object') : [];

/**
 * SPEC B15: a Letta agent file (`.af`, JSON). Memory blocks — `core_memory` of an agent (the
 * original schema) or the top-level `blocks` (the newer one) — become one entry per non-empty line
 * of their `value`, filed under `letta/<label>`; archival passages (`passages` or
 * `archival_memory`, top level or per agent) become one entry each under `letta/archival`, with
 * their tags. Their `created_at` and `updated_at` are kept. Pure but for new ids.
 */
export function parseLettaAgentFile(text: string, source: string, now: string): ParsedImport {
  const parsed = parseJsonDocument(text);
  if ('problem' in parsed) return { records: [], problems: [parsed.problem] };
  const agents = [parsed.value, ...objects(field(parsed.value, 'agents'))];
  const blocks = agents.flatMap((agent) => [...objects(field(agent, 'core_memory')), ...objects(field(agent, 'blocks'))]);
  const passages = agents.flatMap((agent) => [...objects(field(agent, 'passages')), ...objects(field(agent, 'archival_memory'))]);
  if (blocks.length === 0 && passages.length === 0) {
    return { records: [], problems: [{ message: 'not a Letta agent file with memory: no core_memory, blocks or passages' }] };
  }
  const memories: Array<{ where: string; memory: ForeignMemory }> = [];
  for (const [index, block] of blocks.entries()) {
    const label = field(block, 'label');
    const value = field(block, 'value');
    if (typeof value !== 'string') continue;
    const category = `letta/${categorySlug(typeof label === 'string' ? label : '') || 'block'}`;
    const times = { createdAt: isoTimestamp(field(block, 'created_at')), updatedAt: isoTimestamp(field(block, 'updated_at')) };
    for (const line of value.split('\n')) {
      const content = line.replace(/^\s*[-*]\s+/, '').trim();
      if (content !== '') memories.push({ where: `block ${index + 1} (${String(label)})`, memory: { content, category, ...times } });
    }
  }
  for (const [index, passage] of passages.entries()) {
    const content = field(passage, 'text');
    const tags = field(passage, 'tags');
    if (typeof content !== 'string' || content.trim() === '') continue;
    memories.push({
      where: `passage ${index + 1}`,
      memory: {
        content,
        category: 'letta/archival',
        tags: Array.isArray(tags)
          ? tags
              .filter((tag): tag is string => typeof tag === 'string')
              .map(categorySlug)
              .filter(Boolean)
          : [],
        createdAt: isoTimestamp(field(passage, 'created_at')),
        updatedAt: isoTimestamp(field(passage, 'updated_at')),
      },
    });
  }
  const result: ParsedImport = { records: [], problems: [] };
  for (const { where, memory } of memories) {
    const entry = importedEntry(memory, source, now);
    if ('problem' in entry) result.problems.push({ message: `${where}: ${entry.problem}` });
    else result.records.push({ type: 'memory', entry });
  }
  return result;
}
