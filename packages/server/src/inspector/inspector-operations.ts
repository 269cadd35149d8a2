import { z } from 'zod';
import { defineOperation } from '../operations/operation';

/**
 * The reads the inspector page needs beside the catalogue's, served on the HTTP API (and in the
 * OpenAPI document) by the inspector extension.
 */
export const memoryHistory = defineOperation({
  name: 'get_memory_history',
  title: "A memory's history",
  description:
    'Which dream runs created, merged, changed or deleted an entry, oldest first: each change with its run (status, trigger, when, undone or not), pass, reason and the entry before and after. Empty when no run touched it; the entry need not exist any more.',
  access: 'read',
  input: z.object({ id: z.string().min(1).describe('The entry id (12 lowercase hex characters)') }),
  http: { method: 'GET', path: '/api/memory/{id}/history' },
  async run({ id }, { reverie }) {
    return reverie.dreams.history({ kind: 'memory', key: id });
  },
});

export const dreamChanges = defineOperation({
  name: 'get_dream_run_changes',
  title: "A dream run's changes",
  description:
    'What one run changed, in the order it applied it: each memory entry or skill before and after, the pass, the reason, and whether it was applied or left alone as a conflict. RUN_NOT_FOUND when unknown.',
  access: 'read',
  input: z.object({ runId: z.string().min(1).describe('A run id (from list_dream_runs)') }),
  http: { method: 'GET', path: '/api/dream/runs/{runId}/changes' },
  async run({ runId }, { reverie }) {
    return reverie.dreams.changes(runId);
  },
});

export const dreamLedger = defineOperation({
  name: 'get_dream_ledger',
  title: 'The dream ledger',
  description:
    "The telemetry ledger's lines, oldest first — one per pass of every real run: phase, status, items, operations applied, tokens, refusals — all of them or those that ended within the last windowHours.",
  access: 'read',
  input: z.object({
    windowHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 3660)
      .optional()
      .describe('Only passes that ended within this many hours (default: all)'),
  }),
  http: { method: 'GET', path: '/api/dream/ledger' },
  async run({ windowHours }, { reverie }) {
    return reverie.dreams.ledger(windowHours === undefined ? {} : { windowHours });
  },
});

/** Every operation the inspector adds to the HTTP API. */
export const INSPECTOR_OPERATIONS = [memoryHistory, dreamChanges, dreamLedger];
