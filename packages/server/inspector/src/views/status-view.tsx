import { useState } from 'preact/hooks';
import { query } from '../api';
import { Show } from '../components';
import { tokens, when } from '../format';
import { bucketLedger, type PhaseTotals } from '../ledger-buckets';
import { type DreamStatus, type LedgerLine, PHASES } from '../types';
import { useApi } from '../use-api';

const WINDOWS = [
  [24, 'Last 24 hours'],
  [24 * 7, 'Last 7 days'],
  [24 * 30, 'Last 30 days'],
] as const;

const METRICS: Array<[keyof PhaseTotals, string]> = [
  ['applied', 'Operations applied'],
  ['passes', 'Passes run'],
  ['tokens', 'Tokens'],
  ['failed', 'Failed passes'],
];

/** Status by phase over a window, and the ledger over time as a small chart. */
export function StatusView() {
  const [windowHours, setWindowHours] = useState<number>(24 * 7);
  const status = useApi<DreamStatus>(`/api/dream/status${query({ windowHours })}`);
  const ledger = useApi<LedgerLine[]>(`/api/dream/ledger${query({ windowHours })}`);
  return (
    <section>
      <h2>Status</h2>
      <div class="actions">
        {WINDOWS.map(([hours, label]) => (
          <button key={hours} type="button" class={hours === windowHours ? 'active' : ''} onClick={() => setWindowHours(hours)}>
            {label}
          </button>
        ))}
      </div>
      <Show loaded={status}>
        {(data) => (
          <>
            <p class="meta">
              Last run {when(data.lastRunAt)} · last successful run {when(data.lastSuccessfulRunAt)} · lock {data.lock?.status ?? 'unknown'}
              {data.lock?.status === 'held' && ` by ${data.lock.holder.runId ?? data.lock.holder.pid}`}
            </p>
            <div class="phases">
              {data.phases.map((phase) => (
                <div key={phase.phase} class={`phase ${phase.phase}`}>
                  <h3>{phase.phase}</h3>
                  <dl>
                    <dt>Runs</dt>
                    <dd>{phase.runs}</dd>
                    <dt>Passes</dt>
                    <dd>
                      {phase.ok} ok · {phase.warnings} warning · {phase.failed} failed · {phase.skipped} skipped
                    </dd>
                    <dt>Applied</dt>
                    <dd>{phase.applied}</dd>
                    <dt>Refusals</dt>
                    <dd>{phase.refusals}</dd>
                    <dt>Tokens</dt>
                    <dd>{tokens(phase.tokens)}</dd>
                    <dt>Last ok</dt>
                    <dd>{when(phase.lastSuccessAt)}</dd>
                  </dl>
                </div>
              ))}
            </div>
          </>
        )}
      </Show>
      <Show loaded={ledger}>{(lines) => <LedgerChart lines={lines} windowHours={windowHours} />}</Show>
    </section>
  );
}

function LedgerChart({ lines, windowHours }: { lines: LedgerLine[]; windowHours: number }) {
  const [metric, setMetric] = useState<keyof PhaseTotals>('applied');
  const buckets = bucketLedger(lines, { now: Date.now(), windowHours, count: 28 });
  const totals = buckets.map((bucket) => PHASES.reduce((sum, phase) => sum + bucket.phases[phase][metric], 0));
  const top = Math.max(1, ...totals);
  const width = 560;
  const height = 140;
  const slot = width / buckets.length;
  return (
    <figure class="chart">
      <figcaption>
        The ledger over time:{' '}
        <select value={metric} onChange={(event) => setMetric(event.currentTarget.value as keyof PhaseTotals)}>
          {METRICS.map(([name, label]) => (
            <option key={name} value={name}>
              {label}
            </option>
          ))}
        </select>{' '}
        per {windowHours / 28 >= 24 ? `${Math.round(windowHours / 28 / 24)} day(s)` : `${Math.round((windowHours / 28) * 10) / 10} h`}, highest {top.toLocaleString('en')}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height + 16}`} role="img" aria-label={`${metric} per phase over time`}>
        <line class="axis" x1={0} y1={height} x2={width} y2={height} />
        {buckets.map((bucket, index) => {
          let y = height;
          return (
            <g key={bucket.start}>
              <title>
                {new Date(bucket.start).toISOString().slice(0, 16).replace('T', ' ')}:{' '}
                {PHASES.map((phase) => `${phase} ${bucket.phases[phase][metric]}`).join(', ')}
              </title>
              {PHASES.map((phase) => {
                const barHeight = (bucket.phases[phase][metric] / top) * (height - 4);
                y -= barHeight;
                return barHeight > 0 ? <rect key={phase} class={`bar ${phase}`} x={index * slot + 1} y={y} width={slot - 2} height={barHeight} /> : null;
              })}
            </g>
          );
        })}
        <text class="tick" x={0} y={height + 13}>
          {new Date(buckets[0]!.start).toISOString().slice(0, 10)}
        </text>
        <text class="tick end" x={width} y={height + 13}>
          now
        </text>
      </svg>
      <ul class="legend">
        {PHASES.map((phase) => (
          <li key={phase}>
            <span class={`swatch ${phase}`} /> {phase}
          </li>
        ))}
      </ul>
    </figure>
  );
}
