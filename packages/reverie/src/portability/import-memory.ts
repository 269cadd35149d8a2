import { type ILongTermMemory, type ISkillStore, type MemoryEntry, mergeTemporalFields, parseOptions, type Skill } from '@reverie/core';
import type { DreamOperation } from '@reverie/dream-state';
import { z } from 'zod';
import { FORGOTTEN_CATEGORY, type ForgottenRecord, ForgottenFacts, statesForgottenFact } from '../memory/forgetting/forgotten-facts';
import type { ForgetEngine } from '../memory/forgetting/memory-forgetting';
import type { ExportRecord } from './export-format';
import { importRefused } from './import-problems';
import { parseLettaAgentFile } from './letta-import';
import { parseMarkdownMemories } from './markdown-import';
import { parseMem0Memories } from './mem0-import';
import { type ParsedImport, parseExport } from './parse-export';

/** The formats `import` reads (docs/export.md). */
export const IMPORT_FORMATS = ['reverie', 'markdown', 'mem0', 'letta'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What `import` is told while it works: records read and planned, then applied. */
export interface ImportProgress {
  phase: 'plan' | 'apply';
  done: number;
  total: number;
}

/** SPEC B15: the options of `reverie.import`. */
export const importOptionsSchema = z
  .object({
    /** The file's format; `auto` (the default) tells by `source`'s extension, then by the content. */
    format: z.enum(['auto', ...IMPORT_FORMATS]).default('auto'),
    /** Where the data came from (a file name): recorded in the lineage of imported entries and in messages. */
    source: z.string().min(1).max(200).default('import'),
    /** An entry (same id) or skill (same name) that exists: kept (`skip`, the default), replaced, or merged by the host's arithmetic. */
    onConflict: z.enum(['skip', 'replace', 'merge']).default('skip'),
    /** Read and plan, write nothing: the report says what an import would do. */
    dryRun: z.boolean().default(false),
    /** Import entries that state a fact the user had Reverie forget (refused by default). */
    allowForgotten: z.boolean().default(false),
    onProgress: z.custom<(progress: ImportProgress) => void>((value) => typeof value === 'function', 'must be a function').optional(),
  })
  .strict();
export type ImportOptions = z.input<typeof importOptionsSchema>;

/** What an import did, or would do with `dryRun`. */
export interface ImportReport {
  format: ImportFormat;
  dryRun: boolean;
  /** The run that applied it, to undo with `reverie.dreams.undo(runId)`; absent for a dry run or when there was nothing to write. */
  runId?: string;
  memories: { created: number; replaced: number; merged: number; skipped: number; refusedForgotten: number };
  skills: { created: number; replaced: number; skipped: number };
  tombstones: { created: number; skipped: number };
  /** Vectors the file carried: read and checked, not stored (the instance embeds what it imports with its own embedder). */
  vectors: number;
  /** Records that changed while the import ran and were left as they are. */
  conflicts: number;
}

/** What an import writes through. */
export interface ImportTargets {
  memory: ILongTermMemory | undefined;
  skills: ISkillStore | undefined;
  engine: ForgetEngine;
  now: () => Date;
}

const EXTENSIONS = new Map<string, ImportFormat>([
  ['.md', 'markdown'],
  ['.markdown', 'markdown'],
  ['.af', 'letta'],
  ['.jsonl', 'reverie'],
]);

/** The format of `text`: by `source`'s extension, else a Reverie header, a Letta file's fields, or a mem0 list. Pure. */
export function detectFormat(text: string, source: string): ImportFormat {
  const extension = /\.[a-z]+$/i.exec(source)?.[0]?.toLowerCase();
  const byName = extension === undefined ? undefined : EXTENSIONS.get(extension);
  if (byName) return byName;
  const start = text.trimStart();
  if (start.startsWith('{"type":"reverie-export"')) return 'reverie';
  if (/"(core_memory|blocks|passages|archival_memory)"\s*:/.test(start) && start.startsWith('{')) return 'letta';
  if (start.startsWith('[') || /"results"\s*:/.test(start)) return 'mem0';
  return start.startsWith('{') ? 'reverie' : 'markdown';
}

const PARSERS = new Map<ImportFormat, (text: string, source: string, now: string) => ParsedImport>([
  ['reverie', (text) => parseExport(text)],
  ['markdown', parseMarkdownMemories],
  ['mem0', parseMem0Memories],
  ['letta', parseLettaAgentFile],
]);

/**
 * SPEC B15: imports `text` (a Reverie export, a Markdown memory file, a mem0 memory list or a Letta
 * agent file) as one run of the dream engine (trigger `import`), which `reverie.dreams.undo(runId)`
 * reverses. The whole file is read first: any problem (a line that does not parse, an unknown
 * version, a record that fails validation, a category outside the tree) is an INVALID_INPUT naming
 * each by line, and nothing is written. Entries of a Reverie export come back as they were exported
 * (ids, times, validity, lineage: a round trip is lossless, and the run records the import); the
 * other formats' entries are new, with lineage origin `import` and `source`. An entry stating a forgotten fact is refused unless `allowForgotten`.
 */
export async function importMemory(targets: ImportTargets, text: string, options: ImportOptions = {}): Promise<ImportReport> {
  const parsedOptions = parseOptions(importOptionsSchema, options, 'import options');
  if (typeof text !== 'string') throw importRefused(parsedOptions.source, [{ message: 'the import takes the file’s text (a string)' }]);
  const { source, onConflict, dryRun, onProgress } = parsedOptions;
  const format = parsedOptions.format === 'auto' ? detectFormat(text, source) : parsedOptions.format;
  const at = targets.now().toISOString();
  const { records, problems } = PARSERS.get(format)!(text, source, at);
  if (problems.length > 0) throw importRefused(source, problems);
  const needs = new Set(records.map((record) => (record.type === 'skill' ? 'skills' : 'memory')));
  if (needs.has('memory') && !targets.memory)
    throw importRefused(source, [{ message: 'the file has memories and this instance has no long-term memory (.withMemory())' }]);
  if (needs.has('skills') && !targets.skills)
    throw importRefused(source, [{ message: 'the file has skills and this instance has no skill library (.withSkills())' }]);

  const report: ImportReport = {
    format,
    dryRun,
    memories: { created: 0, replaced: 0, merged: 0, skipped: 0, refusedForgotten: 0 },
    skills: { created: 0, replaced: 0, skipped: 0 },
    tombstones: { created: 0, skipped: 0 },
    vectors: 0,
    conflicts: 0,
  };
  const tell = (progress: ImportProgress) => onProgress?.(progress);
  const forgotten = await forgottenRecords(targets.memory, records);
  const states = (content: string) => !parsedOptions.allowForgotten && forgotten.some((record) => statesForgottenFact(record, content));
  const operations: DreamOperation[] = [];
  for (const [index, record] of records.entries()) {
    const operation = await planRecord(targets, record, { onConflict, at, states, report, source });
    if (operation) operations.push(operation);
    if ((index + 1) % 500 === 0 || index + 1 === records.length) tell({ phase: 'plan', done: index + 1, total: records.length });
  }
  if (dryRun || operations.length === 0) return report;
  const run = await targets.engine.applyOperations({
    trigger: 'import',
    pass: 'import',
    operations,
    itemsProcessed: records.length,
    notes: [`imported from ${source} (${format})`],
  });
  const outcome = run.passes[0];
  report.runId = run.runId;
  report.conflicts = outcome && outcome.status !== 'skipped' ? outcome.conflicts : 0;
  tell({ phase: 'apply', done: operations.length, total: operations.length });
  return report;
}

/** The forget records in memory and those the file brings. */
async function forgottenRecords(memory: ILongTermMemory | undefined, records: readonly ExportRecord[]): Promise<ForgottenRecord[]> {
  const stored = memory ? await new ForgottenFacts(memory).records() : [];
  return [...stored, ...records.flatMap((record) => (record.type === 'tombstone' ? [record.record] : []))];
}

interface PlanContext {
  onConflict: 'skip' | 'replace' | 'merge';
  at: string;
  states: (content: string) => boolean;
  report: ImportReport;
  source: string;
}

/** The operation one record needs, counted in the report; undefined when it is skipped or refused. */
async function planRecord(targets: ImportTargets, record: ExportRecord, context: PlanContext): Promise<DreamOperation | undefined> {
  const { report, onConflict } = context;
  if (record.type === 'vector') return void report.vectors++;
  if (record.type === 'skill') {
    const existing = await targets.skills!.get(record.skill.name);
    if (existing && onConflict === 'skip') return void report.skills.skipped++;
    const skill: Skill = existing && onConflict === 'merge' ? laterSkill(existing, record.skill) : record.skill;
    if (existing) report.skills.replaced++;
    else report.skills.created++;
    return { op: 'skill.save', skill, expectUpdatedAt: existing?.updatedAt ?? null, reason: `imported from ${context.source}` };
  }
  const memory = targets.memory!;
  if (record.type === 'tombstone') {
    if (await memory.get(record.id)) return void report.tombstones.skipped++;
    report.tombstones.created++;
    const entry: MemoryEntry = {
      id: record.id,
      content: JSON.stringify(record.record),
      category: FORGOTTEN_CATEGORY,
      tags: [],
      createdAt: record.createdAt,
      updatedAt: context.at,
      lastSeenAt: record.createdAt,
      reinforcementCount: 1,
      importance: 0,
      metadata: {},
    };
    return { op: 'memory.save', entry, expectUpdatedAt: null, reason: `imported from ${context.source}` };
  }
  const imported = record.entry;
  if (context.states(imported.content)) return void report.memories.refusedForgotten++;
  const existing = await memory.get(imported.id);
  if (existing && onConflict === 'skip') return void report.memories.skipped++;
  const entry = existing && onConflict === 'merge' ? mergedEntry(existing, imported) : imported;
  if (!existing) report.memories.created++;
  else if (onConflict === 'merge') report.memories.merged++;
  else report.memories.replaced++;
  return { op: 'memory.save', entry, expectUpdatedAt: existing?.updatedAt ?? null, reason: `imported from ${context.source}` };
}

/**
 * An entry that exists merged with its imported version by the host's arithmetic (SPEC D4):
 * earliest `createdAt`, latest `lastSeenAt`, summed reinforcement, highest importance, the union
 * of the tags; the wording, category, validity and lineage of the version seen last. Pure.
 */
export function mergedEntry(existing: MemoryEntry, imported: MemoryEntry): MemoryEntry {
  const later = Date.parse(imported.lastSeenAt) > Date.parse(existing.lastSeenAt) ? imported : existing;
  const temporal = mergeTemporalFields([existing, imported]);
  return {
    ...later,
    id: existing.id,
    createdAt: temporal.createdAt,
    lastSeenAt: temporal.lastSeenAt,
    reinforcementCount: temporal.reinforcementCount,
    importance: temporal.importance,
    tags: [...new Set([...existing.tags, ...imported.tags])],
    metadata: { ...existing.metadata, ...imported.metadata, ...temporal.metadata },
  };
}

/** Of two versions of a skill, the one updated last. Pure. */
function laterSkill(existing: Skill, imported: Skill): Skill {
  return Date.parse(imported.updatedAt) > Date.parse(existing.updatedAt) ? imported : existing;
}
