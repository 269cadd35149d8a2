/**
 * Headline figures: every benchmark prints the figures the issue sets targets for as one
 * `FIGURE {json}` line each, next to its human-readable output, so `pnpm bench` can gather them
 * from all the benchmarks of one run into one table (see `bench-all.ts`).
 */
export interface Figure {
  /** Stable key, e.g. `store.coldOpen.100000`. */
  id: string;
  /** What was measured, as the table shows it. */
  label: string;
  value: number;
  unit: string;
  /** The same thing measured in the same run on what it replaces or competes with. */
  baseline?: { label: string; value: number };
  /** The target, if it sets one. */
  target?: { atMost?: number; atLeast?: number };
}

export const FIGURE_PREFIX = 'FIGURE ';

export function reportFigure(figure: Figure): void {
  console.log(`${FIGURE_PREFIX}${JSON.stringify(figure)}`);
}

/** Parses the figure lines out of a benchmark's output. */
export function parseFigures(output: string): Figure[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith(FIGURE_PREFIX))
    .flatMap((line) => {
      try {
        return [JSON.parse(line.slice(FIGURE_PREFIX.length)) as Figure];
      } catch {
        return [];
      }
    });
}

/** "3.2× faster" style ratio of baseline to value (for figures where lower is better). */
export function ratio(figure: Figure): string {
  if (!figure.baseline || figure.value <= 0) return '';
  const times = figure.baseline.value / figure.value;
  // A share (no unit, such as recall) is compared to three decimals: 1.096× must not print as 1.1×.
  const digits = (x: number) => (figure.unit === '' ? 3 : x >= 10 ? 0 : 1);
  return times >= 1 ? `${times.toFixed(digits(times))}× less` : `${(1 / times).toFixed(digits(1 / times))}× more`;
}

/** Whether the figure meets its target: "PASS", "MISS", or "" without one. */
export function verdict(figure: Figure): string {
  const { atMost, atLeast } = figure.target ?? {};
  if (atMost === undefined && atLeast === undefined) return '';
  const met = (atMost === undefined || figure.value <= atMost) && (atLeast === undefined || figure.value >= atLeast);
  return met ? 'PASS' : 'MISS';
}

export function formatValue(value: number, unit: string): string {
  if (unit === '') return value.toFixed(3);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`;
}
