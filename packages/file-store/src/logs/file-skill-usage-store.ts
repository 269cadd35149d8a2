import { join } from 'node:path';
import {
  assertOpen,
  type IClock,
  type ILogger,
  type ISkillUsageStore,
  selectSkillUsages,
  silentLogger,
  type SkillUsage,
  type SkillUsageDraft,
  type SkillUsageListOptions,
  skillUsageSchema,
  systemClock,
  validateSkillName,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { DirectoryLock } from '../fs/directory-lock';
import { validateStoreOptions } from '../options/validate-store-options';
import { JsonlFile } from './jsonl-file';

export interface FileSkillUsageStoreOptions {
  /** The agent's data directory; usage records go to `<dataPath>/logs/skill-usage.jsonl`. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
}

/**
 * The default `ISkillUsageStore` (SPEC M13): one JSON line per use of a skill in
 * `<dataPath>/logs/skill-usage.jsonl`, safe for several processes on one data directory.
 */
export class FileSkillUsageStore implements ISkillUsageStore {
  private readonly clock: IClock;
  private readonly file: JsonlFile<SkillUsage>;
  private closed = false;

  constructor(options: FileSkillUsageStoreOptions) {
    const valid = validateStoreOptions(options, 'FileSkillUsageStore');
    this.clock = valid.clock ?? systemClock;
    const logger = valid.logger ?? silentLogger;
    const dir = join(valid.dataPath, 'logs');
    this.file = new JsonlFile({
      path: join(dir, 'skill-usage.jsonl'),
      schema: skillUsageSchema,
      lock: new DirectoryLock(dir, { logger }),
      logger,
      clock: this.clock,
      what: 'skill usage',
    });
  }

  async record(usage: SkillUsageDraft): Promise<SkillUsage> {
    this.assertOpen();
    validateSkillName(usage?.skill);
    const record = parseDraft(skillUsageSchema, { ...usage, timestamp: usage.timestamp ?? this.clock.now().toISOString() }, 'skill usage');
    await this.file.append([record]);
    return { ...record };
  }

  async list(options: SkillUsageListOptions = {}): Promise<SkillUsage[]> {
    this.assertOpen();
    const { records } = await this.file.read();
    return selectSkillUsages(records, options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.file.idle();
  }

  private assertOpen(): void {
    assertOpen(this.closed, 'skill usage store');
  }
}
