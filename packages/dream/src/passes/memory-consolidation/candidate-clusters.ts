import { Bm25Index, memoryDocumentText, memoryLabelWords } from '@reverie/core';
import { indexLookup, type Neighbour, type NeighbourLookup } from '../../review/neighbour-lookup';
import type { ConsolidationItem } from './consolidation-item';

export interface ClusterOptions {
  /** Neighbours looked up per seed. */
  neighbours: number;
  /** A hit counts when it scores at least this share of the best hit of the same query. */
  minNeighbourScore: number;
  /**
   * The most items one cluster may hold. Links are joined strongest first and a link that would
   * grow a cluster past this is dropped, so weak resemblances cannot chain a large memory into
   * one giant cluster that must be cut across calls (which would separate true duplicates).
   */
  maxClusterSize: number;
}

export interface CandidateCluster {
  /** Item ids, seeds first and then in the order they were reached, so neighbours stay together. */
  ids: string[];
  /** True when the cluster holds entries found for a correction signal. */
  feedback: boolean;
}

/**
 * Disjoint sets over item numbers, with path halving and set sizes, in two typed arrays: a run
 * over every entry joins about one set per item, and a Map per field held two entries per item.
 */
class UnionFind {
  private readonly parent: Int32Array;
  private readonly sizes: Int32Array;

  constructor(count: number) {
    this.parent = new Int32Array(count);
    for (let n = 0; n < count; n++) this.parent[n] = n;
    this.sizes = new Int32Array(count).fill(1);
  }

  size(n: number): number {
    return this.sizes[this.find(n)]!;
  }

  find(n: number): number {
    const parent = this.parent;
    let current = n;
    while (parent[current] !== current) {
      const grand = parent[parent[current]!]!;
      parent[current] = grand;
      current = grand;
    }
    return current;
  }

  union(a: number, b: number): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA === rootB) return;
    this.parent[rootB] = rootA;
    this.sizes[rootA]! += this.sizes[rootB]!;
  }
}

/** Item ids numbered in item order, so links and clusters can be kept in typed arrays. */
export class ItemNumbers {
  private readonly numberOf = new Map<string, number>();

  constructor(readonly ids: readonly string[]) {
    ids.forEach((id, n) => this.numberOf.set(id, n));
  }

  get size(): number {
    return this.ids.length;
  }

  /** The number of an item id; undefined for an id that is not an item. */
  of(id: string): number | undefined {
    return this.numberOf.get(id);
  }
}

/** A BM25 index over items as recall sees them (content, tags and category, the category as their label). */
export function itemIndex(items: readonly ConsolidationItem[]): Bm25Index {
  const index = new Bm25Index();
  index.setAll(items.map((item) => ({ id: item.id, text: memoryDocumentText(item.view), labelWords: memoryLabelWords(item.view) })));
  return index;
}

/**
 * Neighbours among `items` by their content, through an index over them (`itemIndex`) built on
 * the first question: a run whose store answers with its own index never builds it.
 */
export function itemLookup(items: readonly ConsolidationItem[]): NeighbourLookup {
  let built: NeighbourLookup | undefined;
  const lookup = () => {
    if (!built) {
      const byId = new Map(items.map((item) => [item.id, item]));
      built = indexLookup(itemIndex(items), (id) => byId.get(id)?.view.content);
    }
    return built;
  };
  return {
    ofItem: (id, limit) => lookup().ofItem(id, limit),
    ofText: (text, limit) => lookup().ofText(text, limit),
  };
}

/**
 * Links between items close enough to count, each with how close (see `Neighbour`), in the order
 * they were found, as item numbers and strengths in typed arrays: a run over every entry collects
 * about five per entry, and arrays of ids that grow as they fill left several copies of them
 * behind for the collector.
 */
export class CandidateLinks {
  private ends = new Int32Array(2 * 1024);
  private strengths = new Float64Array(1024);
  private count = 0;

  constructor(readonly numbers: ItemNumbers) {}

  get length(): number {
    return this.count;
  }

  /** Links item `a` to item `b`; both must be items of `numbers`. */
  add(a: string, b: string, strength: number): void {
    const from = this.numbers.of(a);
    const to = this.numbers.of(b);
    if (from === undefined || to === undefined) throw new Error(`CandidateLinks.add: ${from === undefined ? a : b} is not an item`);
    if (this.count === this.strengths.length) this.grow();
    this.ends[2 * this.count] = from;
    this.ends[2 * this.count + 1] = to;
    this.strengths[this.count++] = strength;
  }

  /** The item numbers the link at `index` joins. */
  a(index: number): number {
    return this.ends[2 * index]!;
  }

  b(index: number): number {
    return this.ends[2 * index + 1]!;
  }

  /** Positions of the links, strongest first; equally strong ones in the order they were found. */
  strongestFirst(): Uint32Array {
    const order = new Uint32Array(this.count);
    for (let index = 0; index < order.length; index++) order[index] = index;
    const strength = this.strengths;
    return order.sort((x, y) => strength[y]! - strength[x]! || x - y);
  }

  private grow(): void {
    const ends = new Int32Array(this.ends.length * 2);
    ends.set(this.ends);
    this.ends = ends;
    const strengths = new Float64Array(this.strengths.length * 2);
    strengths.set(this.strengths);
    this.strengths = strengths;
  }
}

/**
 * Adds to `links` (a new list unless given) the links from each seed that is an item to its
 * neighbours that are items and score at least `minNeighbourScore` × the best hit, in seed
 * order: what `findCandidateClusters` joins.
 */
export function seedLinks(
  seeds: readonly string[],
  isItem: (id: string) => boolean,
  options: ClusterOptions,
  lookup: NeighbourLookup,
  links: CandidateLinks,
): CandidateLinks {
  for (const seed of seeds) {
    if (!isItem(seed)) continue;
    for (const neighbour of lookup.ofItem(seed, options.neighbours)) {
      if (isItem(neighbour.id) && neighbour.strength >= options.minNeighbourScore) links.add(seed, neighbour.id, neighbour.strength);
    }
  }
  return links;
}

/**
 * SPEC B1: candidate clusters around what changed. Neighbours come from `lookup`: by default a
 * BM25 index over every item (content, tags and category, as recall sees them), or the store's
 * own index through its change feed (B12); each seed queries it with its own content and keeps
 * up to `neighbours` hits scoring at least `minNeighbourScore` × the best hit (`seedLinks`, or
 * `links` when the caller collected them already: the correction links are added to them); each
 * correction text does the same. Links are joined strongest first into clusters of at most
 * `maxClusterSize` items (a link that would exceed it is dropped). A seed with no neighbour makes no cluster
 * (nothing to compare it with); the entries found for corrections always do, so the model can
 * see what is already known before it writes an anti-pattern. Clusters with correction hits
 * come first, then in the order of their first seed. Cost: one query per seed and correction,
 * independent of the number of unchanged items.
 */
export function findCandidateClusters(
  items: readonly ConsolidationItem[],
  seeds: readonly string[],
  corrections: readonly string[],
  options: ClusterOptions,
  lookup: NeighbourLookup = itemLookup(items),
  links?: CandidateLinks,
): CandidateCluster[] {
  const numbers = links?.numbers ?? new ItemNumbers(items.map((item) => item.id));
  const isItem = (id: string) => numbers.of(id) !== undefined;

  const sets = new UnionFind(numbers.size);
  const candidates = links ?? seedLinks(seeds, isItem, options, lookup, new CandidateLinks(numbers));
  const strongEnough = (found: Neighbour[]) => found.filter((hit) => isItem(hit.id) && hit.strength >= options.minNeighbourScore);

  const feedbackHits = new Set<number>();
  const feedbackStarts: number[] = [];
  for (const text of corrections) {
    const found = strongEnough(lookup.ofText(text, options.neighbours));
    found.forEach(({ id, strength }, position) => {
      feedbackHits.add(numbers.of(id)!);
      if (position > 0) candidates.add(found[0]!.id, id, strength);
    });
    if (found[0] !== undefined) feedbackStarts.push(numbers.of(found[0].id)!);
  }

  // Strongest links first; a link that would overflow a cluster is dropped.
  const order = candidates.strongestFirst();
  const kept = new Uint8Array(order.length);
  const degree = new Int32Array(numbers.size + 1);
  for (const index of order) {
    const a = candidates.a(index);
    const b = candidates.b(index);
    if (sets.find(a) !== sets.find(b)) {
      if (sets.size(a) + sets.size(b) > options.maxClusterSize) continue;
      sets.union(a, b);
    }
    kept[index] = 1;
    degree[a]! += 1;
    degree[b]! += 1;
  }
  const edges = linkedItems(candidates, order, kept, degree);
  const hasEdges = (n: number) => edges.start[n + 1]! > edges.start[n]!;
  const starts = [...seeds.map((seed) => numbers.of(seed)).filter((n): n is number => n !== undefined && hasEdges(n)), ...feedbackStarts];

  const clusters = new Map<number, CandidateCluster>();
  const placed = new Uint8Array(numbers.size);
  for (const start of starts) {
    const root = sets.find(start);
    let cluster = clusters.get(root);
    if (!cluster) {
      cluster = { ids: [], feedback: false };
      clusters.set(root, cluster);
    }
    // Breadth-first from each start, so a cluster cut into pieces keeps neighbours together.
    const queue = [start];
    for (let next = 0; next < queue.length; next++) {
      const n = queue[next]!;
      if (placed[n]) continue;
      placed[n] = 1;
      cluster.ids.push(numbers.ids[n]!);
      if (feedbackHits.has(n)) cluster.feedback = true;
      for (let edge = edges.start[n]!; edge < edges.start[n + 1]!; edge++) {
        const other = edges.to[edge]!;
        if (!placed[other]) queue.push(other);
      }
    }
  }
  const ordered = [...clusters.values()];
  return [...ordered.filter((cluster) => cluster.feedback), ...ordered.filter((cluster) => !cluster.feedback)];
}

/**
 * The kept links as adjacency lists in two typed arrays (item `n`'s neighbours are
 * `to[start[n]]…to[start[n + 1] - 1]`), each list in the order its links were kept: what a
 * Map of arrays per item held, in one allocation. `degree` counts each item's kept links.
 */
function linkedItems(
  links: CandidateLinks,
  order: Uint32Array,
  kept: Uint8Array,
  degree: Int32Array,
): { start: Int32Array; to: Int32Array } {
  const start = new Int32Array(degree.length);
  for (let n = 1; n < degree.length; n++) start[n] = start[n - 1]! + degree[n - 1]!;
  const to = new Int32Array(start[degree.length - 1]!);
  const fill = start.slice();
  for (const index of order) {
    if (!kept[index]) continue;
    const a = links.a(index);
    const b = links.b(index);
    to[fill[a]!++] = b;
    to[fill[b]!++] = a;
  }
  return { start, to };
}
