import type { IClock } from '../interfaces/clock';
import type { ISkillUsageStore, SkillUsageListOptions } from '../interfaces/skill-store';
import { parseDraft } from '../schemas/parse-record';
import { type SkillUsage, type SkillUsageDraft, skillUsageSchema } from '../schemas/skill';
import { assertOpen } from '../stores/write-condition';
import { selectSkillUsages } from '../stores/record-selectors';
import { systemClock } from '../time/system-clock';
import { validateSkillName } from '../validation/path-name';
import type { InMemoryStoreOptions } from './in-memory-store-options';

/** The reference `ISkillUsageStore`: usage records in an array. Nothing persists. */
export class InMemorySkillUsageStore implements ISkillUsageStore {
  private readonly usages: SkillUsage[] = [];
  private readonly clock: IClock;
  private closed = false;

  constructor(options: InMemoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async record(usage: SkillUsageDraft): Promise<SkillUsage> {
    assertOpen(this.closed, 'skill usage store');
    validateSkillName(usage?.skill);
    const record = parseDraft(skillUsageSchema, { ...usage, timestamp: usage.timestamp ?? this.clock.now().toISOString() }, 'skill usage');
    this.usages.push(record);
    return { ...record };
  }

  async list(options: SkillUsageListOptions = {}): Promise<SkillUsage[]> {
    assertOpen(this.closed, 'skill usage store');
    return selectSkillUsages(this.usages, options);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
