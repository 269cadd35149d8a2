import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';

/** A fault to inject: calls that write under `under` fail with `errno`. */
export interface FileSystemFaultRule {
  errno: 'EROFS' | 'ENOSPC' | 'EIO' | 'EACCES' | 'EDQUOT';
  /** Only paths inside this directory fail. */
  under: string;
  /** Chance that a matching call fails (default 1). */
  probability?: number;
  /** Source of randomness for `probability` (default Math.random). */
  random?: () => number;
}

/** A switch for the faults injected into `node:fs`; `restore()` puts the real functions back. */
export interface FileSystemFaults {
  set(rule: FileSystemFaultRule | undefined): void;
  /** How many calls failed on purpose so far. */
  readonly injected: number;
  restore(): void;
}

// biome-ignore lint/suspicious/noExplicitAny: wraps any function of node:fs, whatever its parameters
type AnyFunction = (...args: any[]) => any;

const PROMISE_WRITES = [
  'writeFile',
  'appendFile',
  'mkdir',
  'rename',
  'link',
  'unlink',
  'rm',
  'rmdir',
  'copyFile',
  'truncate',
  'utimes',
] as const;
const CALLBACK_WRITES = ['writeFile', 'appendFile', 'mkdir', 'rename', 'link', 'unlink', 'rmdir', 'utimes'] as const;
const SYNC_WRITES = ['writeFileSync', 'appendFileSync', 'mkdirSync', 'renameSync', 'linkSync', 'unlinkSync'] as const;

/**
 * Makes the writing functions of `node:fs` (promise, callback and sync forms, and `open` with a
 * writing flag) fail with a chosen errno for paths under a directory, the way a read-only or
 * full disk answers. Reads are left alone. Every module sees the change, including ones that
 * imported named functions already (`syncBuiltinESMExports`). For tests and the chaos
 * benchmark; never for production.
 */
export function injectFileSystemFaults(): FileSystemFaults {
  let rule: (FileSystemFaultRule & { root: string }) | undefined;
  let injected = 0;
  const originals: Array<[Record<string, unknown>, string, unknown]> = [];

  const failure = (syscall: string, path: unknown, flags?: unknown): NodeJS.ErrnoException | undefined => {
    if (rule === undefined || typeof path !== 'string') return undefined;
    if (syscall === 'open' && !(typeof flags === 'string' && /[wax+]/.test(flags))) return undefined;
    const absolute = resolve(path);
    if (absolute !== rule.root && !absolute.startsWith(`${rule.root}/`)) return undefined;
    if ((rule.random ?? Math.random)() >= (rule.probability ?? 1)) return undefined;
    injected++;
    return Object.assign(new Error(`${rule.errno}: injected fault, ${syscall} '${path}'`), { code: rule.errno, syscall, path });
  };

  // The names patched are the fs functions this file lists, never user text.
  const patch = (target: Record<string, unknown>, name: string, wrap: (original: AnyFunction) => AnyFunction): void => {
    const original = Reflect.get(target, name);
    if (typeof original !== 'function') return;
    originals.push([target, name, original]);
    Reflect.set(target, name, wrap(original as AnyFunction));
  };

  const promises = fs.promises as unknown as Record<string, unknown>;
  const callbacks = fs as unknown as Record<string, unknown>;
  for (const name of PROMISE_WRITES) {
    patch(
      promises,
      name,
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const error = failure(name, args[0]);
          return error ? Promise.reject(error) : original.apply(this, args);
        },
    );
  }
  patch(
    promises,
    'open',
    (original) =>
      function (this: unknown, ...args: unknown[]) {
        const error = failure('open', args[0], args[1]);
        return error ? Promise.reject(error) : original.apply(this, args);
      },
  );
  for (const name of CALLBACK_WRITES) {
    patch(
      callbacks,
      name,
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const error = failure(name, args[0]);
          const callback = args.at(-1);
          if (error && typeof callback === 'function') {
            process.nextTick(() => (callback as AnyFunction)(error));
            return undefined;
          }
          return original.apply(this, args);
        },
    );
  }
  for (const name of SYNC_WRITES) {
    patch(
      callbacks,
      name,
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const error = failure(name.replace(/Sync$/, ''), args[0]);
          if (error) throw error;
          return original.apply(this, args);
        },
    );
  }
  syncBuiltinESMExports();

  return {
    set(next) {
      rule = next === undefined ? undefined : { ...next, root: resolve(next.under) };
    },
    get injected() {
      return injected;
    },
    restore() {
      rule = undefined;
      for (const [target, name, original] of originals.reverse()) Reflect.set(target, name, original);
      originals.length = 0;
      syncBuiltinESMExports();
    },
  };
}
