// Preloaded with `node --import` by import-bench.ts: after the process's work, prints to stderr
// the files it loaded as one JSON line, `{"esm": [...], "cjs": [...]}` — ES modules as the module
// loader's hooks see them, CommonJS modules from require's cache. Plain JavaScript: it runs in a
// bare `node` child, without tsx.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const esm = [];
port1.on('message', (url) => esm.push(url));
port1.unref();
register('./count-modules-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
const cache = createRequire(import.meta.url).cache;

process.on('exit', () => {
  process.stderr.write(`${JSON.stringify({ esm, cjs: Object.keys(cache) })}\n`);
});
