import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';

/** Keys of an error's details that say which process or machine holds something: never answered. */
const WHO_KEYS = new Set(['pid', 'host', 'hostname', 'token']);

/** Node's own wording of a failed system call, `EIO: i/o error, open '/x'`: its code is kept, the rest goes. */
const SYSTEM_CALL_MESSAGE = /\b(E[A-Z0-9]{2,}): [^,'"]*?, [a-z_]+(?: '[^']*')?(?: -> '[^']*')?/g;
/** A JavaScript parser's message in parentheses, `(Unexpected token } in JSON at position 4)`. */
const PARSER_MESSAGE = / ?\((?:Unexpected|Expected|Bad control|Unterminated)[^)]*\)/g;
/** Who holds the dream lock, as the lock and the gates word it. */
const LOCK_HOLDER = [
  { pattern: /\bprocess \d+ on [^\s,;)]+/g, replacement: 'another process' },
  { pattern: /\bprocess \d+ is gone from [^\s,;)]+/g, replacement: 'its process is gone' },
  { pattern: /\bno heartbeat from [^\s,;)]+/g, replacement: 'no heartbeat' },
  { pattern: /\b(?:process|pid) \d+/g, replacement: 'a process' },
];
/** An absolute path outside the data directory (not one of the server's own routes). */
const ABSOLUTE_PATH = /(^|[\s('"=[])\/(?!api\/|mcp\b|inspector\b|openapi\.json\b)(?:[^\s'"()<>,;[\]]+\/)+[^\s'"()<>,;[\]]*/g;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What an error may say to a caller (SPEC O10): no absolute path — the data directory is named
 * `<data>` (`<data>/memory/…`), anything else outside it `<path>` —, no process id, host name or
 * lock token, and none of Node's or the JSON parser's own wording. The full error goes to the
 * server's log instead. Pure, once built.
 */
export class ErrorRedactor {
  private readonly roots: string[];
  private readonly hosts: RegExp[];

  constructor(dataPath: string, hostNames: readonly string[] = [hostname()]) {
    const roots = new Set([dataPath]);
    try {
      roots.add(realpathSync(dataPath));
    } catch {
      // A data directory that does not exist (yet) has no other spelling.
    }
    this.roots = [...roots]
      .map((root) => root.replace(/\/+$/, ''))
      .filter((root) => root.length > 1)
      .sort((a, b) => b.length - a.length);
    this.hosts = hostNames.filter((name) => name.length >= 3).map((name) => new RegExp(`\\b${escapeRegExp(name)}\\b`, 'gi'));
  }

  /** `text` with paths, process ids, host names and runtime wording taken out. */
  text(text: string, extraHosts: readonly string[] = []): string {
    let result = text;
    for (const root of this.roots) result = result.split(root).join('<data>');
    result = result.replace(SYSTEM_CALL_MESSAGE, '$1').replace(PARSER_MESSAGE, '');
    for (const { pattern, replacement } of LOCK_HOLDER) result = result.replace(pattern, replacement);
    for (const host of [
      ...this.hosts,
      ...extraHosts.filter((name) => name.length >= 3).map((name) => new RegExp(`\\b${escapeRegExp(name)}\\b`, 'gi')),
    ]) {
      result = result.replace(host, '<host>');
    }
    return result.replace(ABSOLUTE_PATH, '$1<path>');
  }

  /** An error's message and details, redacted; `changed` says whether anything was taken out. */
  error(message: string, details: Record<string, unknown>): { message: string; details: Record<string, unknown>; changed: boolean } {
    const hosts = hostsIn(details);
    const redacted = { message: this.text(message, hosts), details: this.value(details, hosts) as Record<string, unknown> };
    return { ...redacted, changed: redacted.message !== message || JSON.stringify(redacted.details) !== JSON.stringify(details) };
  }

  private value(value: unknown, hosts: readonly string[]): unknown {
    if (typeof value === 'string') return this.text(value, hosts);
    if (Array.isArray(value)) return value.map((item) => this.value(item, hosts));
    if (value === null || typeof value !== 'object') return value;
    const kept = new Map<string, unknown>();
    for (const [key, item] of Object.entries(value)) if (!WHO_KEYS.has(key)) kept.set(key, this.value(item, hosts));
    return Object.fromEntries(kept);
  }
}

/** The host names an error's details carry (`holder.host` of a lock), to take out of its wording too. */
function hostsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) hostsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if ((key === 'host' || key === 'hostname') && typeof item === 'string') found.push(item);
      else hostsIn(item, found);
    }
  }
  return found;
}
