import { type ILogger, silentLogger } from '@reverie/core';
import type { AppendOnlyLog, JsonlContents } from '@reverie/dream-state';
import type { ZodType } from 'zod';
import { JsonlFile } from '../logs/jsonl-file';

/**
 * An append-only log of the dream state (the ledger, the completed sessions) as a file of JSON
 * lines shared without a lock (see `JsonlFile`): each append is one whole line, fsynced, so
 * concurrent appenders never mix two records, and reading never writes.
 */
export class JsonlLog<T> implements AppendOnlyLog<T> {
  private readonly file: JsonlFile<T>;

  constructor(
    readonly location: string,
    schema: ZodType<T>,
    options: { what: string; logger?: ILogger | undefined },
  ) {
    this.file = new JsonlFile({ path: location, schema, logger: options.logger ?? silentLogger, what: options.what });
  }

  append(record: T): Promise<void> {
    return this.file.append([record]);
  }

  /** Every valid record, oldest first; torn or invalid lines are skipped and counted. */
  async read(): Promise<JsonlContents<T>> {
    const { records, skipped } = await this.file.read();
    return { lines: records as T[], invalidLines: skipped };
  }
}
