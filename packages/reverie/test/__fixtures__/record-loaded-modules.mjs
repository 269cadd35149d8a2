// Preloaded with `node --import` by import-laziness.test.ts: `globalThis.loadedModules()`
// resolves to every file the process has loaded so far — ES modules as the loader hooks report
// them, CommonJS modules from require's cache.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const { port1, port2 } = new MessageChannel();
const esm = [];
port1.on('message', (url) => esm.push(fileURLToPath(url)));
port1.unref();
register('./record-loaded-modules-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
const cache = createRequire(import.meta.url).cache;

globalThis.loadedModules = async () => {
  // The hooks run on their own thread; let their last messages arrive.
  await new Promise((done) => setTimeout(done, 50));
  return [...new Set([...esm, ...Object.keys(cache)])];
};
