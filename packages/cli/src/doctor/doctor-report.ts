import type { DreamPassPlan, ReverieCheck } from 'reverie';

/** One line of `reverie doctor`: the library's checks (`checkReverie`) and the CLI's own (model, data directory, options). */
export type DoctorCheck = ReverieCheck;

/** What `reverie doctor` found. */
export interface DoctorReport {
  version: string;
  node: string;
  dataPath: string;
  /** With `--postgres`: the scope and database the stores are in (without a password); the data directory then holds only the directives. */
  database?: string;
  checks: DoctorCheck[];
  /** Files the stores set aside as unreadable, relative to the data directory. */
  quarantined: string[];
  /** Which dream passes a cycle would run with this setup. */
  plan: DreamPassPlan[];
  /** The dreaming options the CLI runs with. */
  options: Record<string, unknown> | null;
}

/** `key = value` for every leaf of the options (`consolidation.tokenBudget = 12000`). Pure. */
export function flattenOptions(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
      flattenOptions(inner, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [`${prefix} = ${JSON.stringify(value)}`];
}

/** `reverie doctor` in text. Pure. */
export function renderDoctorReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.name.length));
  const where =
    report.database === undefined ? `data directory ${report.dataPath}` : `${report.database}, directives from ${report.dataPath}`;
  const lines = [`reverie ${report.version} (node ${report.node}) — ${where}`, ''];
  for (const check of report.checks) lines.push(`  ${check.status.padEnd(4)}  ${check.name.padEnd(width)}  ${check.detail}`);
  if (report.quarantined.length > 0) {
    lines.push('', 'Set aside as unreadable (inspect, repair or delete them):', ...report.quarantined.map((file) => `  ${file}`));
  }
  if (report.plan.length > 0) {
    lines.push('', 'Dream passes with this setup:');
    const nameWidth = Math.max(...report.plan.map((pass) => pass.name.length));
    for (const pass of report.plan) {
      lines.push(
        `  ${(pass.status === 'would-run' ? 'runs' : 'skips').padEnd(5)}  ${pass.name.padEnd(nameWidth)}  ${pass.reason ?? ''}`.trimEnd(),
      );
    }
  }
  if (report.options) {
    // The schedule switch is the CLI's own (always off: it runs cycles only when asked).
    const { enabled: _schedule, ...options } = report.options;
    lines.push('', 'Dreaming options in force:', ...flattenOptions(options).map((line) => `  ${line}`));
  }
  return lines.join('\n');
}
