/** Skills whose names share their first segment (`mcp/email`, `mcp/calendar`, `mcp`). */
export interface PrefixCluster {
  /** The shared first segment (`mcp`); the cluster is shown to the model as `mcp/*`. */
  prefix: string;
  /** Member names, sorted. */
  names: string[];
}

/** The first segment of a skill name (`mcp` for `mcp/email/send`, the name itself without a slash). */
export function firstSegment(name: string): string {
  const slash = name.indexOf('/');
  return slash === -1 ? name : name.slice(0, slash);
}

/**
 * SPEC D9: groups skill names by their first segment and keeps the groups of at least two,
 * sorted by prefix. A skill named exactly like the prefix (`mcp`) belongs to the cluster: it is
 * its natural parent guide. Pure.
 */
export function prefixClusters(names: readonly string[]): PrefixCluster[] {
  const groups = new Map<string, Set<string>>();
  for (const name of names) {
    const prefix = firstSegment(name);
    const group = groups.get(prefix) ?? new Set<string>();
    group.add(name);
    groups.set(prefix, group);
  }
  return [...groups]
    .filter(([, group]) => group.size >= 2)
    .map(([prefix, group]) => ({ prefix, names: [...group].sort(compare) }))
    .sort((x, y) => compare(x.prefix, y.prefix));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
