import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ReverieError, validateScope } from '@reverie/core';
import { fileSystemError, scopeFromFolderName } from '@reverie/core/internal';
import type { ToolFamilies } from '../tools/agent-tools';
import type { Reverie } from './reverie';

/**
 * SPEC B8: many scopes' instances over one data directory, as `.buildScopes()` returns them.
 * Each scope's instance — its stores, caches, recall signals, dream cycle, lock and runs — is
 * built at the first `get(scope)` and kept until `closeScope` or `close`.
 */
export class ReverieScopes<F extends ToolFamilies = ToolFamilies> {
  private readonly instances = new Map<string, Reverie<F>>();
  private closed = false;

  constructor(
    /** The shared data directory; with the file stores each scope lives in `scopes/<scope>/` below it. */
    readonly dataPath: string,
    private readonly build: (scope: string) => Reverie<F>,
    /** A shared backend's: how it lists its scopes, and what `close()` ends after the instances (its pool). */
    private readonly backend?: { list(): Promise<string[]>; close(): Promise<void> },
  ) {}

  /** The instance of `scope`, built at its first use. INVALID_SCOPE for a bad scope, STORE_CLOSED after `close()`. */
  get(scope: string): Reverie<F> {
    validateScope(scope);
    if (this.closed)
      throw new ReverieError('STORE_CLOSED', `These scopes were closed: build them again with .buildScopes() to serve "${scope}".`);
    let instance = this.instances.get(scope);
    if (!instance) {
      instance = this.build(scope);
      this.instances.set(scope, instance);
    }
    return instance;
  }

  /** The scopes with an instance open in this process, sorted. */
  get open(): string[] {
    return [...this.instances.keys()].sort();
  }

  /** Every scope that has data in the data directory or the database (whether open here or not), sorted. */
  async list(): Promise<string[]> {
    if (this.backend) return this.backend.list();
    const folder = join(this.dataPath, 'scopes');
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw fileSystemError(error, 'list the scopes', folder);
    }
    return names.flatMap((name) => scopeFromFolderName(name) ?? []).sort();
  }

  /** Closes one scope's instance (its scheduler, queued writes, stores); the next `get` builds it again. */
  async closeScope(scope: string): Promise<void> {
    const instance = this.instances.get(validateScope(scope));
    if (!instance) return;
    this.instances.delete(scope);
    await instance.close();
  }

  /** Closes every open instance. `get` refuses afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const instances = [...this.instances.values()];
    this.instances.clear();
    await Promise.all(instances.map((instance) => instance.close()));
    await this.backend?.close();
  }
}
