import { describe, expect, it } from 'vitest';
import type { IWorkflowLog } from '../interfaces/workflow-log';
import { ID_PATTERN } from '../ids/new-id';
import type { WorkflowExecutionDraft } from '../schemas/workflow-execution';
import { type ConformanceOptions, DAY, HOSTILE_PATHS, HOUR, MINUTE, type StoreFactory, useStoreHarness } from './conformance-context';

/**
 * The behaviour every `IWorkflowLog` must show (SPEC D12), as a vitest suite. Call it from a test
 * file of your log:
 *
 * ```ts
 * describeWorkflowLogConformance('MyWorkflowLog', ({ clock, scope }) => new MyWorkflowLog({ clock, scope }), { persistent: true });
 * ```
 */
export function describeWorkflowLogConformance(name: string, factory: StoreFactory<IWorkflowLog>, options: ConformanceOptions = {}): void {
  describe(`${name} — IWorkflowLog conformance`, () => {
    const harness = useStoreHarness(factory, options);
    const iso = (offsetMs: number) => new Date(harness.clock.now().getTime() + offsetMs).toISOString();
    const succeeded = (description: string, extra: Partial<WorkflowExecutionDraft> = {}): WorkflowExecutionDraft => ({
      description,
      success: true,
      ...extra,
    });

    describe('append', () => {
      it('assigns an id and stamps the timestamp from the clock', async () => {
        const log = await harness.open();
        const now = harness.clock.now().getTime();
        const record = await log.append({
          description: 'Send the weekly report',
          skill: 'reports/weekly',
          success: true,
          durationMs: 1250,
        });
        expect(record.id).toMatch(ID_PATTERN);
        expect(record).toMatchObject({ description: 'Send the weekly report', skill: 'reports/weekly', success: true, durationMs: 1250 });
        expect(new Date(record.timestamp).getTime()).toBe(now);
        expect(await log.read()).toEqual([record]);
      });

      it('gives every record its own id', async () => {
        const log = await harness.open();
        const ids = new Set<string>();
        for (let i = 0; i < 50; i++) ids.add((await log.append(succeeded(`run ${i}`))).id);
        expect(ids.size).toBe(50);
      });

      it('records a failure with its failed step and error, and keeps a given timestamp', async () => {
        const log = await harness.open();
        const record = await log.append({
          description: 'Import invoices',
          success: false,
          failedStep: 'download',
          error: 'HTTP 503 from the billing API',
          timestamp: '2026-02-14T03:00:00.000Z',
        });
        expect(record).toMatchObject({
          description: 'Import invoices',
          success: false,
          failedStep: 'download',
          error: 'HTTP 503 from the billing API',
          timestamp: '2026-02-14T03:00:00.000Z',
        });
        expect(await log.read()).toEqual([record]);
      });

      it('hands out copies: changing a returned record changes nothing stored', async () => {
        const log = await harness.open();
        const record = await log.append(succeeded('original'));
        record.description = 'mutated';
        const read = await log.read();
        read[0]!.success = false;
        expect(await log.read()).toMatchObject([{ description: 'original', success: true }]);
      });
    });

    describe('invalid input', () => {
      it('refuses a successful run that carries an error or a failed step, and writes nothing', async () => {
        const log = await harness.open();
        await expect(log.append({ description: 'x', success: true, error: 'boom' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(log.append({ description: 'x', success: true, failedStep: 'step 2' })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
        expect(await log.read()).toEqual([]);
      });

      it('refuses an empty description, a bad duration and a bad timestamp', async () => {
        const log = await harness.open();
        await expect(log.append({ description: '', success: true })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(log.append({ description: 'x', success: true, durationMs: -1 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(log.append({ description: 'x', success: true, timestamp: 'yesterday' })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
        await expect(log.append({ description: 'x' } as WorkflowExecutionDraft)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await log.read()).toEqual([]);
      });

      for (const [label, value] of HOSTILE_PATHS) {
        it(`refuses a skill name with ${label} and writes nothing`, async () => {
          const log = await harness.open();
          // A store may report INVALID_NAME (the name check) or INVALID_INPUT (the record check).
          await expect(log.append({ description: 'x', skill: value, success: true })).rejects.toMatchObject({
            code: expect.stringMatching(/^INVALID_/),
          });
          expect(await log.read()).toEqual([]);
        });
      }

      it('refuses a bad range and a bad clear bound', async () => {
        const log = await harness.open();
        await log.append(succeeded('kept'));
        await expect(log.read({ since: 'last week' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(log.read({ until: 'tomorrow' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(log.clear({ before: 'yesterday' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await log.read()).toHaveLength(1);
      });
    });

    describe('read', () => {
      it('reads oldest first whatever the order of appending', async () => {
        const log = await harness.open();
        await log.append(succeeded('third', { timestamp: iso(2 * HOUR) }));
        await log.append(succeeded('first', { timestamp: iso(-HOUR) }));
        await log.append(succeeded('second'));
        expect((await log.read()).map((r) => r.description)).toEqual(['first', 'second', 'third']);
      });

      it('filters by since (inclusive) and until (exclusive)', async () => {
        const log = await harness.open();
        for (const [description, offset] of [
          ['early', 0],
          ['edge', HOUR],
          ['middle', HOUR + MINUTE],
          ['late', 2 * HOUR],
        ] as const) {
          await log.append(succeeded(description, { timestamp: iso(offset) }));
        }
        expect((await log.read({ since: iso(HOUR) })).map((r) => r.description)).toEqual(['edge', 'middle', 'late']);
        expect((await log.read({ until: iso(HOUR) })).map((r) => r.description)).toEqual(['early']);
        expect((await log.read({ since: iso(HOUR), until: iso(2 * HOUR) })).map((r) => r.description)).toEqual(['edge', 'middle']);
      });

      it('filters by exact description and by skill', async () => {
        const log = await harness.open();
        const a = await log.append({ description: 'Sync calendar', skill: 'mcp/calendar', success: true });
        harness.clock.advance(MINUTE);
        const b = await log.append({ description: 'Sync calendar', success: false, failedStep: 'auth', error: 'token expired' });
        harness.clock.advance(MINUTE);
        const c = await log.append({ description: 'Sync calendar and contacts', skill: 'mcp/calendar/sync', success: true });
        harness.clock.advance(MINUTE);
        const d = await log.append({ description: 'Send digest', skill: 'mcp/calendar', success: true });
        expect(await log.read({ description: 'Sync calendar' })).toEqual([a, b]);
        expect(await log.read({ skill: 'mcp/calendar' })).toEqual([a, d]);
        expect(await log.read({ skill: 'mcp/calendar/sync' })).toEqual([c]);
        expect(await log.read({ description: 'Sync calendar', skill: 'mcp/calendar' })).toEqual([a]);
        expect(await log.read({ description: 'sync' })).toEqual([]);
      });
    });

    describe('clear', () => {
      it('with before, removes only older records and returns how many', async () => {
        const log = await harness.open();
        for (const [description, offset] of [
          ['old', -2 * DAY],
          ['older', -3 * DAY],
          ['at the bound', -DAY],
          ['recent', 0],
        ] as const) {
          await log.append(succeeded(description, { timestamp: iso(offset) }));
        }
        expect(await log.clear({ before: iso(-DAY) })).toBe(2);
        expect((await log.read()).map((r) => r.description)).toEqual(['at the bound', 'recent']);
        expect(await log.clear({ before: iso(-DAY) })).toBe(0);
      });

      it('without before, removes every record', async () => {
        const log = await harness.open();
        for (let i = 0; i < 5; i++) await log.append(succeeded(`run ${i}`, { timestamp: iso(i * HOUR) }));
        expect(await log.clear()).toBe(5);
        expect(await log.read()).toEqual([]);
        expect(await log.clear()).toBe(0);
        const after = await log.append(succeeded('after the clear'));
        expect(await log.read()).toEqual([after]);
      });
    });

    describe('concurrency', () => {
      it('loses nothing when many appends run at once', async () => {
        const log = await harness.open();
        const records = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            log.append({ description: `parallel ${i}`, skill: `bulk/skill-${i % 4}`, success: i % 3 !== 0, timestamp: iso(i * 1000) }),
          ),
        );
        expect(new Set(records.map((r) => r.id)).size).toBe(200);
        const read = await log.read();
        expect(read.map((r) => r.description)).toEqual(Array.from({ length: 200 }, (_, i) => `parallel ${i}`));
        expect(await log.read({ skill: 'bulk/skill-2' })).toHaveLength(50);
      });
    });

    describe('lifecycle', () => {
      it('refuses calls after close with STORE_CLOSED', async () => {
        const log = await harness.open();
        await log.close();
        await expect(log.append(succeeded('x'))).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(log.read()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(log.clear()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });

      if (options.persistent) {
        it('finds every record again after a reopen, and clears stay cleared', async () => {
          const log = await harness.open();
          const old = await log.append(succeeded('Rotate logs', { timestamp: iso(-2 * DAY) }));
          const failed = await log.append({
            description: 'Import invoices',
            skill: 'billing/import',
            success: false,
            failedStep: 'parse',
            error: 'bad CSV',
          });
          harness.clock.advance(MINUTE);
          const ok = await log.append(succeeded('Import invoices', { skill: 'billing/import', durationMs: 800 }));
          const reopened = await harness.reopen(log);
          expect(await reopened.read()).toEqual([old, failed, ok]);
          expect(await reopened.read({ skill: 'billing/import' })).toEqual([failed, ok]);
          expect(await reopened.clear({ before: iso(-DAY) })).toBe(1);
          const again = await harness.reopen(reopened);
          expect(await again.read()).toEqual([failed, ok]);
        });
      }
    });
  });
}
