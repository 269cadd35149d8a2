// Keeps a cycle recorded through ../shared/tools/llm-bridge.mjs in the repository (docs/benchmarks.md,
// "Recording a cycle"): its requests redacted of LoCoMo's text (`redactRequest`), the replies as
// written, the run's report (per pass: tokens and refusals) and the conversation it was made from.
// Usage: pnpm --filter @reverie/bench locomo:keep-cycle <conversation> <recording dir> <fixture dir>
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactRequest } from './redact-exchange';

const [conversation, from, to] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
if (!Number.isInteger(conversation) || !from || !to) {
  console.error('Usage: locomo:keep-cycle <conversation 0–4> <recording dir: run/ and exchanges/> <fixture dir>');
  process.exit(2);
}
mkdirSync(join(to, 'exchanges'), { recursive: true });
for (const name of readdirSync(join(from, 'exchanges'))) {
  const number = /^req-(\d+)\.json$/.exec(name)?.[1];
  if (!number) continue;
  writeFileSync(join(to, 'exchanges', name), redactRequest(readFileSync(join(from, 'exchanges', name), 'utf8')));
  copyFileSync(join(from, 'exchanges', `resp-${number}.txt`), join(to, 'exchanges', `resp-${number}.txt`));
}
const runs = join(from, 'run', '_system', 'dreams', 'runs');
const [run] = readdirSync(runs);
const report = JSON.parse(readFileSync(join(runs, run!, 'report.json'), 'utf8')) as {
  passes: Array<{ name: string; tokens?: unknown; refusals?: string[]; proposals?: unknown }>;
};
const passes = report.passes.map(({ name, tokens, refusals, proposals }) => ({
  name,
  ...(tokens ? { tokens } : {}),
  ...(proposals ? { proposals } : {}),
  refusals: refusals ?? [],
}));
writeFileSync(join(to, 'report.json'), `${JSON.stringify({ passes }, null, 1)}\n`);
writeFileSync(
  join(to, 'cycle.json'),
  `${JSON.stringify({ conversation, recordedAt: new Date().toISOString(), model: 'a helper that read only each prompt, answering as a careful capable model would' }, null, 1)}\n`,
);
console.log(`kept ${to}`);
