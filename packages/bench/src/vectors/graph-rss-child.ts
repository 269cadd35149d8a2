// Child process of bench:vectors: the RSS a vector index's graph adds to a process that loads it,
// measured in a process that does nothing else (in the bench's own, collections of its other
// buffers move the RSS by more than the graph's size). Prints {"rssMiB": …} on one line.
import { silentLogger } from '@reverie/core';
import { ANN_SETTINGS } from '../../../file-store/src/embeddings/ann-settings';
import { loadUsearch } from '../../../file-store/src/embeddings/load-usearch';

const [path, dimensionsArg] = process.argv.slice(2);
const usearch = loadUsearch(silentLogger);
if (!path || !dimensionsArg || !usearch) {
  console.error('usage: graph-rss-child <graph file> <dimensions> (and usearch installed)');
  process.exit(2);
}
const dimensions = Number(dimensionsArg);
const rss = () => process.memoryUsage().rss / 2 ** 20;
const before = rss();
const graph = new usearch.Index({
  dimensions,
  metric: 'cos',
  quantization: ANN_SETTINGS.quantization,
  connectivity: ANN_SETTINGS.connectivity,
  expansion_add: ANN_SETTINGS.expansionAdd,
  expansion_search: ANN_SETTINGS.expansionSearch,
  multi: false,
});
graph.load(path);
// Searches touch what a search reads.
const query = new Float32Array(dimensions);
for (let i = 0; i < 200; i++) {
  for (let d = 0; d < dimensions; d++) query[d] = Math.sin(i * 31 + d);
  graph.search(query, 128, 1);
}
console.log(JSON.stringify({ rssMiB: rss() - before }));
