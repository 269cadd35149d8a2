import { useState } from 'preact/hooks';
import { api } from '../api';
import { Badge, ErrorNote, Show } from '../components';
import { shorten, when } from '../format';
import { href } from '../route';
import type { CycleReport, PlanSummary } from '../types';
import { useApi } from '../use-api';

/** The plans dry runs saved: make one, review what it would change, apply it. */
export function PlansView() {
  const plans = useApi<PlanSummary[]>('/api/dream/plans');
  const [planned, setPlanned] = useState<CycleReport>();
  const [error, setError] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const plan = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setPlanned(await api<CycleReport>('/api/dream/plan', { method: 'POST', body: {} }));
      plans.reload();
    } catch (caught) {
      setError(caught as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section>
      <h2>Plans</h2>
      <p class="muted">A dry run plans what a cycle would change and applies nothing; applying the plan later does exactly that, without asking the model again.</p>
      <div class="actions">
        <button type="button" disabled={busy} onClick={plan}>
          {busy ? 'Planning…' : 'Plan a cycle now'}
        </button>
      </div>
      {error && <ErrorNote error={error} />}
      {planned && <PlannedOperations report={planned} />}
      <Show loaded={plans}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No plan waiting to be applied.</p>
          ) : (
            <ul class="plans">
              {list.map((summary) => (
                <PlanItem key={summary.planId} plan={summary} onApplied={plans.reload} />
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}

function PlannedOperations({ report }: { report: CycleReport }) {
  const passes = report.passes.filter((pass) => pass.status !== 'skipped' && (pass.planned?.length ?? 0) > 0);
  return (
    <div class="planned">
      <h3>Plan {report.planId}: what it would change</h3>
      {passes.length === 0 && <p class="muted">Nothing to change.</p>}
      {passes.map((pass) =>
        pass.status === 'skipped' ? null : (
          <div key={pass.name}>
            <h4>{pass.name}</h4>
            <ul>
              {(pass.planned ?? []).map((operation, index) => (
                <li key={index}>
                  <code>{operation.op}</code> {'entry' in operation ? shorten(operation.entry.content, 200) : 'id' in operation ? operation.id : ''}
                  <div class="meta">{operation.reason}</div>
                </li>
              ))}
            </ul>
          </div>
        ),
      )}
    </div>
  );
}

function PlanItem({ plan, onApplied }: { plan: PlanSummary; onApplied(): void }) {
  const [applied, setApplied] = useState<CycleReport>();
  const [error, setError] = useState<Error>();
  const apply = async () => {
    setError(undefined);
    try {
      setApplied(await api<CycleReport>(`/api/dream/plans/${encodeURIComponent(plan.planId)}/apply`, { method: 'POST', body: {} }));
    } catch (caught) {
      setError(caught as Error);
    }
  };
  return (
    <li>
      <div>
        Plan <code>{plan.planId}</code> made {when(plan.createdAt)} ({plan.trigger}) · {plan.operations} operation(s) · expires {when(plan.expiresAt)}
        {plan.expired && <Badge value="expired" />}
      </div>
      <div class="meta">{plan.passes.map((pass) => `${pass.name}: ${pass.operations}`).join(' · ')}</div>
      {applied ? (
        <p class="ok" role="status">
          Applied as run <a href={href('runs', applied.runId)}>{applied.runId}</a>.{' '}
          <button type="button" class="link" onClick={onApplied}>
            Refresh
          </button>
        </p>
      ) : (
        <button type="button" disabled={plan.expired} onClick={apply}>
          Apply this plan
        </button>
      )}
      {error && <ErrorNote error={error} />}
    </li>
  );
}
