import type { CycleReport, DreamTracing, PassOutcome } from '@reverie/dream';
import type { ReverieTracing } from './reverie-tracing';

/**
 * SPEC E3: the dream engine's hooks as spans — `dream_run` for a cycle, with a child
 * `dream_pass <name>` per pass carrying its outcome, items, tokens and refusals; a failed pass's
 * span has the error status. The model calls and store writes of a pass nest under its span.
 */
export function dreamSpans(tracing: ReverieTracing): DreamTracing {
  return {
    run: (run, work) =>
      tracing.span(
        'dream_run',
        {
          'gen_ai.operation.name': 'invoke_workflow',
          'gen_ai.provider.name': 'reverie',
          'reverie.dream.run_id': run.runId,
          'reverie.dream.trigger': run.trigger,
          'reverie.dream.dry_run': run.dryRun,
          'reverie.dream.passes': [...run.passes],
        },
        async (span) => {
          const report = await work();
          const passes = (report as Partial<CycleReport>).passes;
          if (Array.isArray(passes)) {
            span.setAttributes({
              'reverie.dream.passes.failed': passes.filter((pass) => pass.status === 'failed').length,
              ...((report as CycleReport).interrupted ? { 'reverie.dream.interrupted': (report as CycleReport).interrupted! } : {}),
            });
          }
          return report;
        },
      ),
    pass: (pass, work) =>
      tracing.span(
        `dream_pass ${pass.name}`,
        { 'reverie.dream.run_id': pass.runId, 'reverie.dream.pass.name': pass.name, 'reverie.dream.pass.phase': pass.phase },
        async (span) => {
          const outcome = await work();
          span.setAttributes(outcomeAttributes(outcome));
          if (outcome.status === 'failed') span.setStatus({ code: 2, message: outcome.error ?? 'the pass failed' });
          return outcome;
        },
      ),
  };
}

/** What a pass's outcome puts on its span. Pure. */
export function outcomeAttributes(outcome: PassOutcome): Record<string, string | number> {
  if (outcome.status === 'skipped') return { 'reverie.dream.pass.outcome': 'skipped', 'reverie.dream.pass.skip_reason': outcome.reason };
  return {
    'reverie.dream.pass.outcome': outcome.status,
    'reverie.dream.pass.items_processed': outcome.itemsProcessed,
    'reverie.dream.pass.applied': outcome.applied,
    'reverie.dream.pass.refusals': outcome.refusals.length,
    'reverie.dream.pass.misbehaviour': outcome.misbehaviour?.length ?? 0,
    'gen_ai.usage.input_tokens': outcome.tokens.input,
    'gen_ai.usage.output_tokens': outcome.tokens.output,
  };
}
