import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import type { ExportRecord } from './export-format';
import { detectFormat } from './import-memory';
import { parseLettaAgentFile } from './letta-import';
import { parseMarkdownMemories } from './markdown-import';
import { parseMem0Memories } from './mem0-import';
import { parseExport } from './parse-export';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const NOW = '2026-06-01T00:00:00.000Z';
const entries = (records: ExportRecord[]) => records.flatMap((record) => (record.type === 'memory' ? [record.entry] : []));
const pairs = (list: MemoryEntry[]) => list.map((entry) => [entry.category, entry.content]);

describe('parseMarkdownMemories', () => {
  it('makes an entry of each bullet and paragraph, filed under the headings above it', () => {
    const { records, problems } = parseMarkdownMemories(fixture('MEMORY.md'), 'MEMORY.md', NOW);
    expect(problems).toEqual([]);
    expect(pairs(entries(records))).toEqual([
      ['memory', 'Notes the assistant keeps about Sam.'],
      ['memory/preferences', 'Prefers metric units'],
      ['memory/preferences', 'Likes short answers, without filler'],
      ['memory/preferences/food', 'Vegetarian since 2019'],
      ['memory/preferences/food', 'Allergic to peanuts'],
      ['memory/projects', 'The billing service deploys on Tuesdays'],
    ]);
    for (const entry of entries(records)) {
      expect(entry.lineage?.origin).toEqual({ kind: 'import', at: NOW, source: 'MEMORY.md' });
      expect(entry.createdAt).toBe(NOW);
    }
  });

  it('files text before any heading under general, and cannot be steered into _system/ or out of the tree', () => {
    const { records } = parseMarkdownMemories('loose note\n# _system\n- a\n## ../../etc\n- b\n# __proto__\n- c', 'x.md', NOW);
    expect(pairs(entries(records))).toEqual([
      ['general', 'loose note'],
      ['system', 'a'],
      ['system/etc', 'b'],
      ['proto', 'c'],
    ]);
  });
});

describe('parseMem0Memories', () => {
  it('reads get_all’s list: memory, times, categories, and the ids as metadata', () => {
    const { records, problems } = parseMem0Memories(fixture('mem0-memories.json'), 'mem0-memories.json', NOW);
    expect(problems).toEqual([]);
    const [vegetarian, nurse] = entries(records);
    expect(vegetarian).toMatchObject({
      content: 'Is a vegetarian',
      category: 'food',
      tags: ['food'],
      createdAt: '2024-07-20T01:30:01.123456-07:00',
      lastSeenAt: '2024-07-21T08:00:00-07:00',
      metadata: {
        'mem0.id': '3c90c3cc-0d44-4b50-8888-8dd25736052a',
        'mem0.user_id': 'sam',
        'mem0.metadata.source': 'chat',
        'mem0.metadata.confidence': '0.9',
      },
      lineage: { origin: { kind: 'import', source: 'mem0-memories.json' } },
    });
    expect(nurse).toMatchObject({ content: 'Works as a nurse in Porto', category: 'general', createdAt: '2024-08-02T10:00:00Z' });
  });

  it('takes a bare list too, and names an item without memory text', () => {
    expect(entries(parseMem0Memories('[{"memory":"Likes tea"}]', 'm.json', NOW).records)).toHaveLength(1);
    expect(parseMem0Memories('[{"memory":"ok"},{"id":"x"}]', 'm.json', NOW).problems).toEqual([
      { message: 'item 2 (id x): no "memory" text' },
    ]);
    expect(parseMem0Memories('{"results": [\n{"memory": }]}', 'm.json', NOW).problems[0]).toMatchObject({ line: 2 });
  });
});

describe('parseLettaAgentFile', () => {
  it('makes an entry of each line of each memory block and of each archival passage', () => {
    const { records, problems } = parseLettaAgentFile(fixture('support-agent.af'), 'support-agent.af', NOW);
    expect(problems).toEqual([]);
    expect(pairs(entries(records))).toEqual([
      ['letta/human', 'Name: Sam'],
      ['letta/human', 'Prefers email over phone calls'],
      ['letta/persona', 'I am a patient support agent.'],
      ['letta/archival', 'Order 1142 was refunded on 2025-02-11'],
    ]);
    expect(entries(records)[0]).toMatchObject({ createdAt: '2025-03-01T10:00:00Z', lastSeenAt: '2025-03-04T12:00:00Z' });
    expect(entries(records)[3]).toMatchObject({ tags: ['orders'] });
  });

  it('reads the newer layout (agents and blocks), and refuses a file with no memory', () => {
    const newer = JSON.stringify({ agents: [{ name: 'a' }], blocks: [{ label: 'human', value: 'Likes jazz' }] });
    expect(pairs(entries(parseLettaAgentFile(newer, 'a.af', NOW).records))).toEqual([['letta/human', 'Likes jazz']]);
    expect(parseLettaAgentFile('{"name":"empty"}', 'a.af', NOW).problems).toHaveLength(1);
  });
});

describe('parseExport', () => {
  const header = '{"type":"reverie-export","version":1,"exportedAt":"2026-06-01T00:00:00.000Z"}';
  const skill =
    '{"type":"skill","skill":{"name":"deploy","summary":"How to deploy","content":"x","seeAlso":[],"createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z","lastUsedAt":null}}';

  it('reads the records between the header and the end line', () => {
    expect(parseExport(`${header}\n${skill}\n{"type":"end","records":1}\n`)).toMatchObject({ problems: [], records: [{ type: 'skill' }] });
  });

  it('names each problem by its line: not JSON, an invalid record, an unknown version, a file cut short, a wrong count', () => {
    expect(parseExport(`${header}\n{oops\n${skill}\n{"type":"memory","entry":{"id":"x"}}\n{"type":"end","records":1}`).problems).toEqual([
      { line: 2, message: expect.stringMatching(/^not JSON/) },
      { line: 4, message: expect.stringMatching(/^not a valid record/) },
    ]);
    expect(parseExport(header.replace('"version":1', '"version":2')).problems).toEqual([
      { line: 1, message: 'format version 2 is not one this release reads (1)' },
    ]);
    expect(parseExport(`${header}\n${skill}`).problems).toEqual([{ line: 2, message: 'no end line: the file was cut short' }]);
    expect(parseExport(`${header}\n${skill}\n{"type":"end","records":2}`).problems).toEqual([
      { line: 3, message: 'the end line counts 2 records, the file has 1' },
    ]);
    expect(parseExport('').problems).toHaveLength(1);
  });
});

describe('detectFormat', () => {
  it('tells by the name, then by the content', () => {
    expect(detectFormat('', 'MEMORY.md')).toBe('markdown');
    expect(detectFormat('{}', 'agent.af')).toBe('letta');
    expect(detectFormat(fixture('mem0-memories.json'), 'export.json')).toBe('mem0');
    expect(detectFormat('{"type":"reverie-export"}', 'stdin')).toBe('reverie');
    expect(detectFormat('{"core_memory": []}', 'stdin')).toBe('letta');
    expect(detectFormat('- a note', 'stdin')).toBe('markdown');
  });
});
