import { percentile } from '../measure';

/**
 * Per-stage timings of the turn path, taken from outside the library: the stores are handed to
 * the builder wrapped, so every call `forTurn` makes is timed as forTurn sees it (queueing
 * inside the store included). Recording is off until `enabled` is set.
 */
export class StageTimer {
  enabled = false;
  private readonly stages = new Map<string, number[]>();

  /** `target` with `methods` timed under `<name>.<method>`. */
  wrap<T extends object>(name: string, target: T, methods: readonly string[]): T {
    return new Proxy(target, {
      get: (object, property, receiver) => {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (typeof property !== 'string' || !methods.includes(property)) return value.bind(object);
        return async (...args: unknown[]) => {
          const started = performance.now();
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
          } finally {
            if (this.enabled) this.add(`${name}.${property}`, performance.now() - started);
          }
        };
      },
    });
  }

  add(stage: string, ms: number): void {
    let list = this.stages.get(stage);
    if (!list) this.stages.set(stage, (list = []));
    list.push(ms);
  }

  reset(): void {
    this.stages.clear();
  }

  /** A markdown table: calls, mean, p50, p99, max and total per stage. */
  table(): string {
    const rows = ['| stage | calls | mean | p50 | p99 | max | total |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
    for (const [stage, list] of [...this.stages].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const sorted = [...list].sort((a, b) => a - b);
      const total = sorted.reduce((sum, ms) => sum + ms, 0);
      rows.push(
        `| ${stage} | ${sorted.length} | ${(total / sorted.length).toFixed(2)} ms | ${percentile(sorted, 50).toFixed(2)} ms | ${percentile(sorted, 99).toFixed(2)} ms | ${sorted.at(-1)!.toFixed(1)} ms | ${(total / 1000).toFixed(1)} s |`,
      );
    }
    return rows.join('\n');
  }
}
