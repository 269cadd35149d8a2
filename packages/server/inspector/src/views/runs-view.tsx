import { useState } from 'preact/hooks';
import { api } from '../api';
import { Badge, ErrorNote, RecordDiff, Show } from '../components';
import { shorten, tokens, when } from '../format';
import { passesByRun } from '../ledger-buckets';
import { href } from '../route';
import type { LedgerLine, RecordChange, RunDetails, RunSummary, UndoReport } from '../types';
import { useApi } from '../use-api';

export function RunsView({ runId }: { runId: string | undefined }) {
  return runId === undefined ? <RunList /> : <RunPage key={runId} runId={runId} />;
}

/** Every run, newest first, each pass with its outcome, refusals and tokens (from the ledger). */
function RunList() {
  const runs = useApi<RunSummary[]>('/api/dream/runs');
  const ledger = useApi<LedgerLine[]>('/api/dream/ledger');
  return (
    <section>
      <h2>Dream runs</h2>
      <Show loaded={runs}>
        {(list) => {
          const passes = passesByRun(ledger.data ?? []);
          if (list.length === 0) return <p class="muted">No dream run yet.</p>;
          return (
            <table class="runs">
              <thead>
                <tr>
                  <th>Run</th>
                  <th>Started</th>
                  <th>Trigger</th>
                  <th>Status</th>
                  <th>Passes</th>
                  <th>Applied</th>
                  <th>Refusals</th>
                  <th>Tokens</th>
                </tr>
              </thead>
              <tbody>
                {list.map((run) => {
                  const lines = passes.get(run.runId) ?? [];
                  const sum = (pick: (line: LedgerLine) => number) => lines.reduce((total, line) => total + pick(line), 0);
                  return (
                    <tr key={run.runId}>
                      <td>
                        <a href={href('runs', run.runId)}>{run.runId}</a>
                      </td>
                      <td>{when(run.startedAt)}</td>
                      <td>{run.trigger}</td>
                      <td>
                        <Badge value={run.status} />
                        {run.deadLetter && <Badge value="dead-letter" />}
                      </td>
                      <td class="passes">
                        {lines
                          .filter((line) => line.status !== 'skipped')
                          .map((line) => (
                            <span key={line.pass} class={`pass ${line.status}`} title={line.error ?? line.warning ?? line.notes.join('; ')}>
                              {line.pass}
                            </span>
                          ))}
                      </td>
                      <td>{sum((line) => line.applied)}</td>
                      <td>{sum((line) => line.refusals ?? 0)}</td>
                      <td>{tokens({ input: sum((line) => line.tokens.input), output: sum((line) => line.tokens.output) })}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          );
        }}
      </Show>
    </section>
  );
}

/** One run: its passes, what it changed (each record before and after), and undo. */
function RunPage({ runId }: { runId: string }) {
  const details = useApi<RunDetails>(`/api/dream/runs/${encodeURIComponent(runId)}`);
  const changes = useApi<RecordChange[]>(`/api/dream/runs/${encodeURIComponent(runId)}/changes`);
  return (
    <section>
      <p>
        <a href={href('runs')}>← All runs</a>
      </p>
      <Show loaded={details}>
        {(run) => (
          <>
            <h2>
              Run {run.manifest.runId} <Badge value={run.manifest.status} />
            </h2>
            <p class="meta">
              {run.manifest.trigger} · started {when(run.manifest.startedAt)} · finished {when(run.manifest.completedAt)}
              {run.manifest.undoneAt && ` · undone ${when(run.manifest.undoneAt)}`}
            </p>
            <Undo
              runId={run.manifest.runId}
              status={run.manifest.status}
              onDone={() => {
                details.reload();
                changes.reload();
              }}
            />
            <h3>Passes</h3>
            <table class="outcomes">
              <thead>
                <tr>
                  <th>Pass</th>
                  <th>Phase</th>
                  <th>Outcome</th>
                  <th>Applied</th>
                  <th>Refusals</th>
                  <th>Tokens</th>
                  <th>Notes</th>
                </tr>
              </thead>
              <tbody>
                {(run.outcomes ?? []).map((outcome) =>
                  outcome.status === 'skipped' ? (
                    <tr key={outcome.name} class="skipped">
                      <td>{outcome.name}</td>
                      <td>{outcome.phase}</td>
                      <td>
                        <Badge value="skipped" />
                      </td>
                      <td colSpan={4} class="muted">
                        {outcome.reason}
                      </td>
                    </tr>
                  ) : (
                    <tr key={outcome.name}>
                      <td>{outcome.name}</td>
                      <td>{outcome.phase}</td>
                      <td>
                        <Badge value={outcome.status} />
                      </td>
                      <td>
                        {outcome.applied}
                        {outcome.conflicts > 0 && ` (${outcome.conflicts} conflict(s))`}
                      </td>
                      <td>
                        {outcome.refusals.length === 0 ? (
                          '0'
                        ) : (
                          <ul class="refusals">
                            {outcome.refusals.map((refusal, index) => (
                              <li key={index}>{shorten(refusal, 200)}</li>
                            ))}
                          </ul>
                        )}
                      </td>
                      <td>{tokens(outcome.tokens)}</td>
                      <td class="muted">{[outcome.error, outcome.warning, ...outcome.notes].filter(Boolean).join('; ')}</td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
            {run.outcomes === undefined && <p class="muted">This run has no report (it is running, or a crash cut it short).</p>}
          </>
        )}
      </Show>
      <h3>Changes</h3>
      <Show loaded={changes}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">This run changed nothing.</p>
          ) : (
            <ol class="changes">
              {list.map((change) => (
                <li key={`${change.pass}-${change.index}`}>
                  <div>
                    <Badge value={change.action} /> {change.kind}{' '}
                    {change.kind === 'memory' ? <a href={href('memory', change.key)}>{change.key}</a> : <code>{change.key}</code>} ({change.pass})
                    {change.outcome !== 'applied' && <> · <Badge value={change.outcome} /></>}
                  </div>
                  <div class="meta">{change.reason}</div>
                  <RecordDiff change={change} />
                </li>
              ))}
            </ol>
          )
        }
      </Show>
    </section>
  );
}

function Undo({ runId, status, onDone }: { runId: string; status: string; onDone(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<UndoReport>();
  const [error, setError] = useState<Error>();
  if (status === 'undone' && report === undefined) return null;
  const undo = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setReport(await api<UndoReport>(`/api/dream/runs/${encodeURIComponent(runId)}/undo`, { method: 'POST' }));
      setConfirming(false);
      onDone();
    } catch (caught) {
      setError(caught as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="actions">
      {report ? (
        <p class="ok" role="status">
          Undone: {report.restored.length} restored, {report.removed.length} removed
          {report.kept.length > 0 && `, ${report.kept.length} kept (${report.kept.map((kept) => `${kept.record}: ${kept.reason}`).join('; ')})`}.
        </p>
      ) : confirming ? (
        <>
          <span>Put back what this run deleted or replaced and remove what it created?</span>
          <button type="button" class="danger" disabled={busy} onClick={undo}>
            Confirm undo
          </button>
          <button type="button" class="link" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </>
      ) : (
        status !== 'running' && (
          <button type="button" onClick={() => setConfirming(true)}>
            Undo this run
          </button>
        )
      )}
      {error && <ErrorNote error={error} />}
    </div>
  );
}
