import type { CoUsedPair } from './co-used-pairs';
import { firstSegment, type PrefixCluster } from './prefix-clusters';

/**
 * SPEC D9, B1: the groups of skills that should travel in the same model call, so the model
 * sees overlapping skills side by side: a prefix cluster is one group, and a co-used pair joins
 * the groups of its two skills. Skills in neither stay alone. Groups keep the catalogue's order
 * (their first member's position). Pure.
 */
export function groupRelatedSkills(names: readonly string[], clusters: readonly PrefixCluster[], pairs: readonly CoUsedPair[]): string[][] {
  const parent = new Map<string, string>(names.map((name) => [name, name]));
  const root = (name: string): string => {
    let current = name;
    while (parent.get(current) !== current) current = parent.get(current)!;
    parent.set(name, current);
    return current;
  };
  const join = (a: string, b: string) => {
    if (!parent.has(a) || !parent.has(b)) return;
    const ra = root(a);
    const rb = root(b);
    if (ra !== rb) parent.set(rb, ra);
  };
  for (const cluster of clusters) for (const name of cluster.names.slice(1)) join(cluster.names[0]!, name);
  for (const pair of pairs) join(pair.a, pair.b);

  const groups = new Map<string, string[]>();
  for (const name of names) {
    const key = root(name);
    const group = groups.get(key) ?? [];
    group.push(name);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The pairs whose two skills are both in a call. Pure. */
export function pairsWithin(pairs: readonly CoUsedPair[], names: ReadonlySet<string>): CoUsedPair[] {
  return pairs.filter((pair) => names.has(pair.a) && names.has(pair.b));
}

/** The clusters restricted to a call's skills, kept when two members or more remain. Pure. */
export function clustersWithin(clusters: readonly PrefixCluster[], names: ReadonlySet<string>): PrefixCluster[] {
  return clusters
    .map((cluster) => ({ prefix: cluster.prefix, names: cluster.names.filter((name) => names.has(name)) }))
    .filter((cluster) => cluster.names.length >= 2);
}

/**
 * The cluster a new skill named `name` would be the parent guide of: the one named exactly
 * like it (`mcp`) or the one it sits directly under (`mcp/guide`). Pure.
 */
export function guidedCluster(name: string, clusters: readonly PrefixCluster[]): PrefixCluster | undefined {
  const segments = name.split('/');
  if (segments.length > 2) return undefined;
  const prefix = firstSegment(name);
  return clusters.find((cluster) => cluster.prefix === prefix);
}
