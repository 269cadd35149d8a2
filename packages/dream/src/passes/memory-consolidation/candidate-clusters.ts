import { Bm25Index, memoryDocumentText } from '@reverie/core';
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

/** Disjoint sets over item ids, with path halving and set sizes. */
class UnionFind {
  private readonly parent = new Map<string, string>();
  private readonly sizes = new Map<string, number>();

  size(id: string): number {
    return this.sizes.get(this.find(id)) ?? 1;
  }

  find(id: string): string {
    let current = id;
    for (;;) {
      const parent = this.parent.get(current) ?? current;
      if (parent === current) return current;
      const grand = this.parent.get(parent) ?? parent;
      this.parent.set(current, grand);
      current = grand;
    }
  }

  union(a: string, b: string): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA === rootB) return;
    this.parent.set(rootB, rootA);
    this.sizes.set(rootA, (this.sizes.get(rootA) ?? 1) + (this.sizes.get(rootB) ?? 1));
  }
}

/** Records `b` among the items linked to `a`. */
function link(edges: Map<string, string[]>, a: string, b: string): void {
  const linked = edges.get(a);
  if (linked) linked.push(b);
  else edges.set(a, [b]);
}

/** A BM25 index over items as recall sees them (content, tags and category). */
export function itemIndex(items: readonly ConsolidationItem[]): Bm25Index {
  const index = new Bm25Index();
  index.setAll(items.map((item) => ({ id: item.id, text: memoryDocumentText(item.view) })));
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
 * they were found. Kept as parallel arrays: a run over every entry collects about five per
 * entry, and an object per link would hold three times the memory.
 */
export class CandidateLinks {
  readonly a: string[] = [];
  readonly b: string[] = [];
  readonly strength: number[] = [];

  get length(): number {
    return this.a.length;
  }

  add(a: string, b: string, strength: number): void {
    this.a.push(a);
    this.b.push(b);
    this.strength.push(strength);
  }

  /** Positions of the links, strongest first; equally strong ones in the order they were found. */
  strongestFirst(): Uint32Array {
    const order = new Uint32Array(this.length);
    for (let index = 0; index < order.length; index++) order[index] = index;
    const strength = this.strength;
    return order.sort((x, y) => strength[y]! - strength[x]! || x - y);
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
  links = new CandidateLinks(),
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
  const itemIds = new Set(items.map((item) => item.id));
  const isItem = (id: string) => itemIds.has(id);

  const sets = new UnionFind();
  const edges = new Map<string, string[]>();
  const candidates = links ?? seedLinks(seeds, isItem, options, lookup);
  const strongEnough = (found: Neighbour[]) => found.filter((hit) => isItem(hit.id) && hit.strength >= options.minNeighbourScore);
  const seedStarts = seeds.filter(isItem);

  const feedbackHits = new Set<string>();
  const feedbackStarts: string[] = [];
  for (const text of corrections) {
    const found = strongEnough(lookup.ofText(text, options.neighbours));
    found.forEach(({ id, strength }, position) => {
      feedbackHits.add(id);
      if (position > 0) candidates.add(found[0]!.id, id, strength);
    });
    if (found[0] !== undefined) feedbackStarts.push(found[0].id);
  }

  // Strongest links first; a link that would overflow a cluster is dropped.
  for (const index of candidates.strongestFirst()) {
    const a = candidates.a[index]!;
    const b = candidates.b[index]!;
    if (sets.find(a) !== sets.find(b)) {
      if (sets.size(a) + sets.size(b) > options.maxClusterSize) continue;
      sets.union(a, b);
    }
    link(edges, a, b);
    link(edges, b, a);
  }
  const starts = [...seedStarts.filter((seed) => edges.has(seed)), ...feedbackStarts];

  const clusters = new Map<string, CandidateCluster>();
  const placed = new Set<string>();
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
      const id = queue[next]!;
      if (placed.has(id)) continue;
      placed.add(id);
      cluster.ids.push(id);
      if (feedbackHits.has(id)) cluster.feedback = true;
      queue.push(...(edges.get(id) ?? []).filter((other) => !placed.has(other)));
    }
  }
  const ordered = [...clusters.values()];
  return [...ordered.filter((cluster) => cluster.feedback), ...ordered.filter((cluster) => !cluster.feedback)];
}
