// pnpm bench — runs every scale benchmark in one go (import, store, dream, load, recall) and prints their
// headline figures side by side with the baselines measured in the same run, as ratios, with the
// issue's targets. Each benchmark's full output goes to stdout as it runs; the table comes last.
// BENCH_SIZES (default 100000) is passed on; BENCH_ONLY=store,dream runs a subset.
import { spawn } from 'node:child_process';
import { type Figure, formatValue, parseFigures, ratio, verdict } from './figures';

const BENCHES = ['import', 'store', 'dream', 'load', 'recall'] as const;
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const env = { ...process.env, BENCH_SIZES: process.env.BENCH_SIZES ?? '100000' };

function run(name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['--silent', `bench:${name}`], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`bench:${name} exited with ${code}`))));
  });
}

const figures: Figure[] = [];
const failed: string[] = [];
for (const name of BENCHES) {
  if (only && !only.includes(name)) continue;
  console.log(`\n===== bench:${name} =====`);
  try {
    figures.push(...parseFigures(await run(name)));
  } catch (error) {
    failed.push(`${name}: ${(error as Error).message}`);
  }
}

console.log(`\n# Summary — node ${process.version}, ${new Date().toISOString()}, BENCH_SIZES=${env.BENCH_SIZES}\n`);
console.log('| figure | measured | baseline (same run) | baseline | ratio | target | |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const figure of figures) {
  const target =
    figure.target?.atMost !== undefined
      ? `≤ ${formatValue(figure.target.atMost, figure.unit)}`
      : figure.target?.atLeast !== undefined
        ? `≥ ${formatValue(figure.target.atLeast, figure.unit)}`
        : '';
  console.log(
    `| ${figure.label} | ${formatValue(figure.value, figure.unit)} | ${figure.baseline?.label ?? ''} | ${figure.baseline ? formatValue(figure.baseline.value, figure.unit) : ''} | ${ratio(figure)} | ${target} | ${verdict(figure)} |`,
  );
}
if (failed.length > 0) {
  console.log(`\nfailed: ${failed.join('; ')}`);
  process.exitCode = 1;
}
