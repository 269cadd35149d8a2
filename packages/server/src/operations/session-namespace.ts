import { isUnderPrefix, ReverieError, ReverieValidationError } from '@reverie/core';

/** Names the MCP surface gives its sessions' namespaces (`session/mcp-<random>`); an HTTP caller may not name one. */
export const MCP_NAMESPACE_PREFIX = 'mcp-';

/** True when `name` (the part after `session/`) is kept for the MCP sessions. */
export function isMcpNamespaceName(name: string): boolean {
  return name.toLowerCase().startsWith(MCP_NAMESPACE_PREFIX);
}

/** The first segment of a key or prefix, lower-cased: browsing errs on the side of hiding. */
const firstSegment = (path: string) => path.split('/')[0]!.toLowerCase();

/**
 * SPEC M8, O9: a caller's working-memory session, `session/<name>`, as the server binds it. A
 * session reads, lists and searches only its own `session/` namespace — `patrol/` and `subagent/`
 * stay shared — so no session learns another's name, and none writes or reads under it.
 */
export class SessionNamespace {
  readonly namespace: string;

  constructor(readonly name: string) {
    this.namespace = `session/${name}`;
  }

  /**
   * A key to read: refused (NAMESPACE_VIOLATION) when it is a full key in another session. Which
   * keys are full is the agent's tools' rule (`session/<name>/<key>`, exactly): any other key is
   * read in the caller's own namespace.
   */
  checkRead(key: string): void {
    if (key.split('/').length >= 3 && key.startsWith('session/') && !isUnderPrefix(key, this.namespace)) throw this.violation(key);
  }

  /** A prefix to list or search: refused when it names another session; `session` itself shows only this one's entries. */
  checkBrowse(prefix: string | undefined): void {
    if (prefix === undefined) return;
    const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
    if (firstSegment(trimmed) === 'session' && trimmed.includes('/') && !isUnderPrefix(trimmed, this.namespace)) {
      throw this.violation(prefix);
    }
  }

  /** `entries` without those of other sessions. */
  visible<T extends { key: string }>(entries: readonly T[]): T[] {
    return entries.filter((entry) => firstSegment(entry.key) !== 'session' || isUnderPrefix(entry.key, this.namespace));
  }

  private violation(path: string): ReverieError {
    return new ReverieError(
      'NAMESPACE_VIOLATION',
      `"${path}" is in another session's namespace: a session reads and lists only its own (${this.namespace}); patrol/ and subagent/ are shared. Use a plain key such as "inbox" for yours.`,
      { details: { key: path, namespace: this.namespace } },
    );
  }
}

/**
 * The session an HTTP caller names with `X-Reverie-Session`: any name but those kept for MCP
 * sessions (INVALID_INPUT), so an HTTP caller never works in an MCP session's namespace.
 */
export function httpSessionName(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string' || header === '') return undefined;
  if (isMcpNamespaceName(header)) {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `The session "${header}" is not yours to use: names starting with "${MCP_NAMESPACE_PREFIX}" belong to MCP sessions. Send X-Reverie-Session with a name of your own.`,
      { details: { header: 'X-Reverie-Session' } },
    );
  }
  return header;
}
