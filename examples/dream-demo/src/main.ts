import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel } from '@reverie/cli';
import { runDreamDemo } from './dream-demo';

// REVERIE_MODEL (openai:<model>, anthropic:<model>, ollama:<model>, <base-url>#<model>) picks the
// model the dream passes use, exactly as the `reverie` CLI reads it; without it the model-free
// passes run. REVERIE_DEMO_DATA keeps the agent in a directory of your choice.
let loaded: Awaited<ReturnType<typeof loadModel>>;
try {
  loaded = await loadModel(process.env);
} catch (error) {
  console.error(`dream demo: ${(error as Error).message}`);
  process.exit(2);
}
const dataPath = process.env.REVERIE_DEMO_DATA ?? mkdtempSync(join(tmpdir(), 'reverie-dream-demo-'));
await runDreamDemo({ dataPath, model: loaded?.model, modelName: loaded?.label, now: new Date(), print: (line) => console.log(line) });
