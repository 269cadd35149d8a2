import { join } from 'node:path';
import {
  assertOpen,
  Bm25Index,
  checkCondition,
  type HybridRecallOptions,
  type IClock,
  type ILogger,
  type ISkillStore,
  isUnderPrefix,
  resolveSkillDraft,
  ReverieValidationError,
  silentLogger,
  type Skill,
  skillDocumentText,
  type SkillDraft,
  skillSchema,
  type SkillSearchQuery,
  skillSearchQuerySchema,
  type SkillSearchResult,
  systemClock,
  validateSkillName,
  type WriteCondition,
} from '@reverie/core';
import { caseCollision, parseDraft } from '@reverie/core/internal';
import type { VectorSearchOptions } from '../embeddings/vector-search-options';
import { type HybridSearch, hashedFileStem, hybridSearchOf } from '../embeddings/hybrid-search';
import { JsonDocumentCollection } from '../fs/json-document-collection';
import type { RecordReader } from '../fs/record-map';
import { validateStoreOptions } from '../options/validate-store-options';

export interface FileSkillStoreOptions extends HybridRecallOptions, VectorSearchOptions {
  /** The agent's data directory; skills live in `<dataPath>/skills/<name>.json`. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
}

const byName = (a: Skill, b: Skill) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The default `ISkillStore` (SPEC M13): one JSON file per skill, `<dataPath>/skills/<name>.json`
 * (a name such as `mcp/email` becomes `skills/mcp/email.json`), with BM25 search over name,
 * summary and content, hybrid with an `embedder` as the memory store's (SPEC M4; vectors cached in
 * `skills/.embeddings/`). Same durability and multi-process rules as `FileMemoryStore`.
 */
export class FileSkillStore implements ISkillStore {
  private readonly clock: IClock;
  private readonly collection: JsonDocumentCollection<Skill>;
  private readonly index = new Bm25Index();
  private readonly names = new Set<string>();
  private readonly hybrid: HybridSearch | undefined;
  private closed = false;

  constructor(options: FileSkillStoreOptions) {
    const valid = validateStoreOptions(options, 'FileSkillStore');
    this.clock = options.clock ?? systemClock;
    const logger = options.logger ?? silentLogger;
    const root = join(valid.dataPath, 'skills');
    // Skill names hold `/`: their vector files are named by a hash.
    this.hybrid = hybridSearchOf(valid, join(root, '.embeddings'), logger, hashedFileStem);
    this.collection = new JsonDocumentCollection<Skill>({
      root,
      clock: this.clock,
      logger,
      layout: {
        what: 'skill',
        schema: skillSchema,
        keyOf: (skill) => skill.name,
        pathOf: (skill) => `${skill.name}.json`,
        isNewer: (a, b) => new Date(a.updatedAt).getTime() > new Date(b.updatedAt).getTime(),
      },
      listener: {
        check: (skill) => this.index.check(skillDocumentText(skill)),
        onPut: (skill) => {
          // Indexed first: when the text cannot be, nothing has changed.
          const text = skillDocumentText(skill);
          this.index.set(skill.name, text);
          this.names.add(skill.name);
          this.hybrid?.want(skill.name, text);
        },
        onDelete: (skill) => {
          this.names.delete(skill.name);
          this.index.delete(skill.name);
          this.hybrid?.forget(skill.name);
        },
      },
    });
  }

  async get(name: string): Promise<Skill | undefined> {
    this.assertOpen();
    validateSkillName(name);
    const skill = (await this.skills()).get(name);
    return skill && structuredClone(skill);
  }

  async save(draft: SkillDraft, condition?: WriteCondition): Promise<Skill> {
    this.assertOpen();
    const probe = resolveSkillDraft(draft, () => undefined, this.clock);
    const saved = await this.collection.put(probe.name, (current) => {
      // Under the lock, with every process's skills loaded: the check cannot race another writer.
      if (current === undefined) assertNoCaseClash(probe.name, this.names);
      return resolveSkillDraft(draft, () => current, this.clock, condition);
    });
    return structuredClone(saved);
  }

  async delete(name: string, condition?: WriteCondition): Promise<boolean> {
    this.assertOpen();
    validateSkillName(name);
    return this.collection.delete(name, (current) => checkCondition(`Skill ${name}`, current, condition));
  }

  async list(options: { prefix?: string } = {}): Promise<Skill[]> {
    this.assertOpen();
    const prefix = options.prefix === undefined ? undefined : validateSkillName(options.prefix);
    return [...(await this.skills()).values()]
      .filter((skill) => prefix === undefined || isUnderPrefix(skill.name, prefix))
      .sort(byName)
      .map((skill) => structuredClone(skill));
  }

  async search(query: SkillSearchQuery): Promise<SkillSearchResult[]> {
    this.assertOpen();
    if (query?.prefix !== undefined) validateSkillName(query.prefix);
    const { text, prefix, maxResults } = parseDraft(skillSearchQuerySchema, query, 'skill search');
    const skills = await this.skills();
    const matches = (name: string) => skills.has(name) && (prefix === undefined || isUnderPrefix(name, prefix));
    if (text !== undefined && text.trim() !== '') {
      const queryVector = await this.hybrid?.queryVector(text);
      const bm25 = (limit: number) => this.index.search(text, { filter: matches, limit });
      const hits = this.hybrid ? this.hybrid.rank(queryVector, bm25, matches, maxResults) : bm25(maxResults);
      return hits.map((hit) => ({ skill: structuredClone(skills.get(hit.id)!), score: hit.score }));
    }
    return [...skills.values()]
      .filter((skill) => matches(skill.name))
      .sort(byName)
      .slice(0, maxResults)
      .map((skill) => ({ skill: structuredClone(skill), score: 0 }));
  }

  /**
   * Waits until every document saved so far has its vector (for tests and tools); with `index:
   * true`, also until the vector index holds them (see docs/file-store.md, "The vector index").
   */
  async flushEmbeddings(options: { index?: boolean } = {}): Promise<void> {
    await this.skills();
    await (options.index ? this.hybrid?.settleIndex() : this.hybrid?.flush());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.collection.idle();
    await this.hybrid?.close();
  }

  /** The current skills; the first call also reads their cached vectors (in the background). */
  private async skills(): Promise<RecordReader<Skill>> {
    const skills = await this.collection.current();
    this.hybrid?.loadCache(() => new Map([...skills.values()].map((skill) => [skill.name, skillDocumentText(skill)])));
    return skills;
  }

  private assertOpen(): void {
    assertOpen(this.closed, 'skill store');
  }
}

/** Skill names are unique without regard to case: on macOS and Windows two such files are one. */
function assertNoCaseClash(name: string, existing: Iterable<string>): void {
  const clash = caseCollision(name, existing);
  if (clash === undefined) return;
  throw new ReverieValidationError(
    'INVALID_NAME',
    `Invalid skill name ${JSON.stringify(name)}: it differs only in case from the existing "${clash}", and the two would be one file on macOS and Windows. Use "${clash}" as written.`,
    { details: { value: name, clash } },
  );
}
