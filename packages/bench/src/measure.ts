/** Small helpers for printing benchmark figures. */

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)]!;
}

export function rssMiB(): number {
  return process.memoryUsage().rss / 1024 / 1024;
}

export function fmt(value: number, digits = 2): string {
  return value.toFixed(digits);
}

export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await fn();
  return [result, performance.now() - start];
}
