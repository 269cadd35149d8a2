/** What the API answers, as the library types it (type-only: nothing of the library is bundled). */
export type {
  DreamStatus,
  LedgerLine,
  MemoryEntry,
  PassOutcome,
  PlanSummary,
  RecordChange,
  RecordHistoryItem,
  RunDetails,
  RunSummary,
  Skill,
  UndoReport,
  CycleReport,
} from 'reverie';

import type { MemoryEntry } from 'reverie';

/** An entry as the server answers it: as stored, plus what its importance is worth now. */
export type ServedEntry = MemoryEntry & { tier: 'hot' | 'cold'; effectiveImportance: number };

export const PHASES = ['light-sleep', 'rem', 'deep-sleep'] as const;
export type Phase = (typeof PHASES)[number];
