import type { ILongTermMemory, ISkillStore } from '@reverie/core';
import { isSystemCategory } from '@reverie/core/internal';
import { parseForgottenEntry } from '../memory/forgetting/forgotten-facts';
import { EXPORT_FORMAT_VERSION, EXPORT_HEADER_TYPE, type ExportRecord } from './export-format';

/** What an export reads. */
export interface ExportSources {
  memory: ILongTermMemory | undefined;
  skills: ISkillStore | undefined;
  scope: string | undefined;
  now: Date;
}

/**
 * SPEC B15: an instance's memory as the lines of a Reverie export (docs/export.md), each ending
 * with a newline: the header, every memory entry (oldest first, with validity and lineage; Reverie's
 * own `_system/` entries left out), the tombstones forgets left, every skill, and the end line with
 * the count.
 */
export async function* exportLines({ memory, skills, scope, now }: ExportSources): AsyncGenerator<string> {
  yield line({ type: EXPORT_HEADER_TYPE, version: EXPORT_FORMAT_VERSION, exportedAt: now.toISOString(), ...(scope ? { scope } : {}) });
  let records = 0;
  const emit = (record: ExportRecord) => {
    records++;
    return line(record);
  };
  for (const entry of (await memory?.list()) ?? []) {
    if (!isSystemCategory(entry.category)) yield emit({ type: 'memory', entry });
    else {
      const record = parseForgottenEntry(entry);
      if (record) yield emit({ type: 'tombstone', id: entry.id, createdAt: entry.createdAt, record });
    }
  }
  for (const skill of (await skills?.list()) ?? []) yield emit({ type: 'skill', skill });
  yield line({ type: 'end', records });
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
