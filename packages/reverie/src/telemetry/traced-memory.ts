import type {
  CategoryCount,
  ILongTermMemory,
  IMemoryChangeFeed,
  MemoryDraft,
  MemoryEntry,
  MemoryListOptions,
  MemorySearchQuery,
  MemorySearchResult,
  WriteCondition,
} from '@reverie/core';
import { optionalPartsOf } from '../memory/optional-parts-of';
import type { ReverieTracing, SpanAttributes, SpanLike } from './reverie-tracing';

/**
 * SPEC E3: the long-term memory store with a span around each recall, save and delete, named and
 * attributed after the OpenTelemetry GenAI memory conventions: `gen_ai.operation.name`
 * `search_memory`, `update_memory` (a save is an upsert) or `delete_memory`, the store id (the
 * scope), the record ids and the result count; the query text only with `recordInputs: true`.
 * Reads by id and listings are not memory operations of the conventions and pass through.
 */
export class TracedMemory implements ILongTermMemory {
  readonly changes?: IMemoryChangeFeed['changes'];
  readonly neighbours?: IMemoryChangeFeed['neighbours'];
  readonly compactChanges?: IMemoryChangeFeed['compactChanges'];
  readonly neighbourIds?: IMemoryChangeFeed['neighbourIds'];
  /** SPEC B13: as the store says. */
  readonly tiers?: boolean;

  constructor(
    readonly store: ILongTermMemory,
    private readonly tracing: ReverieTracing,
    /** `gen_ai.memory.store.id`: the instance's scope, or `default`. */
    private readonly storeId: string,
  ) {
    Object.assign(this, optionalPartsOf(store));
  }

  search(query: MemorySearchQuery): Promise<MemorySearchResult[]> {
    return this.operation(
      'search_memory',
      {
        'gen_ai.memory.query.text': this.tracing.recordInputs && typeof query?.text === 'string' ? query.text : undefined,
        'gen_ai.memory.search.max_results': typeof query?.maxResults === 'number' ? query.maxResults : undefined,
        'gen_ai.memory.category': typeof query?.category === 'string' ? query.category : undefined,
      },
      async (span) => {
        const results = await this.store.search(query);
        span.setAttributes({
          'gen_ai.memory.search.result.count': results.length,
          'gen_ai.memory.record.ids': results.map((result) => result.entry.id),
        });
        return results;
      },
    );
  }

  save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry> {
    return this.operation('update_memory', { 'gen_ai.memory.record.id': draft?.id }, async (span) => {
      const entry = await this.store.save(draft, condition);
      span.setAttributes({ 'gen_ai.memory.record.id': entry.id, 'gen_ai.memory.category': entry.category });
      return entry;
    });
  }

  delete(id: string, condition?: WriteCondition): Promise<boolean> {
    return this.operation('delete_memory', { 'gen_ai.memory.record.id': id }, async (span) => {
      const deleted = await this.store.delete(id, condition);
      span.setAttributes({ 'gen_ai.memory.deleted.count': deleted ? 1 : 0 });
      return deleted;
    });
  }

  get(id: string): Promise<MemoryEntry | undefined> {
    return this.store.get(id);
  }

  list(options?: MemoryListOptions): Promise<MemoryEntry[]> {
    return this.store.list(options);
  }

  listCategories(): Promise<CategoryCount[]> {
    return this.store.listCategories();
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private operation<T>(name: MemoryOperation, attributes: SpanAttributes, work: (span: SpanLike) => Promise<T>): Promise<T> {
    return memoryOperationSpan(this.tracing, this.storeId, name, attributes, work);
  }
}

/** The GenAI conventions' memory operations Reverie emits. */
export type MemoryOperation = 'search_memory' | 'update_memory' | 'delete_memory';

/**
 * One memory operation as a span, `<operation> <store id>`, with the attributes every such span
 * carries and `attributes` beside them: what `TracedMemory` and a forget (`MemoryForgetting`) share.
 */
export function memoryOperationSpan<T>(
  tracing: ReverieTracing,
  storeId: string,
  operation: MemoryOperation,
  attributes: SpanAttributes,
  work: (span: SpanLike) => Promise<T>,
): Promise<T> {
  return tracing.span(
    `${operation} ${storeId}`,
    {
      'gen_ai.operation.name': operation,
      'gen_ai.provider.name': 'reverie',
      'gen_ai.memory.store.id': storeId,
      'gen_ai.memory.type': 'long_term',
      ...attributes,
    },
    work,
  );
}
