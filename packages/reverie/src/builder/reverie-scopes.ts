import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { newId, ReverieError, validateScope } from '@reverie/core';
import { fileSystemError, scopeFolderName, scopeFromFolderName } from '@reverie/core/internal';
import type { ToolFamilies } from '../tools/agent-tools';
import type { Reverie } from './reverie';

/** How a dropped scope's folder is renamed before it is deleted: `#` is never in a scope's folder name, so `list()` never shows it. */
const DROPPING = '#dropping-';

/** What `drop(scope)` removed: `found` (file stores: whether the scope had a folder) or `rows` and `tables` (PostgreSQL). */
export type ScopeDropReport = { scope: string; found: boolean } | { scope: string; rows: number; tables: number };

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
    /** A shared backend's: how it lists and drops its scopes, and what `close()` ends after the instances (its pool). */
    private readonly backend?: {
      list(): Promise<string[]>;
      drop(scope: string): Promise<{ rows: number; tables: number }>;
      close(): Promise<void>;
    },
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
    const names = await this.scopeFolders();
    await this.finishDrops(names);
    return names.flatMap((name) => scopeFromFolderName(name) ?? []).sort();
  }

  /**
   * SPEC B14: forgets a whole scope — closes its instance, then removes every file (the file
   * stores: its folder `scopes/<scope>/`) or every row (PostgreSQL: each of Reverie's tables, in
   * one transaction) it has; other scopes are untouched. The folder is first renamed aside, in one
   * step, so the scope is gone at once; a crash before its files are deleted leaves the renamed
   * folder, which the next `list()` or `drop()` deletes. Nothing can be undone. Another process
   * that has the scope open must close it first. INVALID_SCOPE for a bad scope, STORE_CLOSED after `close()`.
   */
  async drop(scope: string): Promise<ScopeDropReport> {
    validateScope(scope);
    if (this.closed)
      throw new ReverieError('STORE_CLOSED', `These scopes were closed: build them again with .buildScopes() to drop "${scope}".`);
    await this.closeScope(scope);
    if (this.backend) return { scope, ...(await this.backend.drop(scope)) };
    const scopes = join(this.dataPath, 'scopes');
    const folder = scopeFolderName(scope);
    const aside = `${DROPPING}${folder}-${newId()}`;
    let found = true;
    try {
      await rename(join(scopes, folder), join(scopes, aside));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemError(error, `drop the scope "${scope}"`, scopes);
      found = false;
    }
    await this.finishDrops(await this.scopeFolders());
    return { scope, found };
  }

  /** The names in `scopes/`, none when it does not exist. */
  private async scopeFolders(): Promise<string[]> {
    const folder = join(this.dataPath, 'scopes');
    try {
      return await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw fileSystemError(error, 'list the scopes', folder);
    }
  }

  /** Deletes the folders of dropped scopes that a crash left renamed aside. */
  private async finishDrops(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (!name.startsWith(DROPPING)) continue;
      const folder = join(this.dataPath, 'scopes', name);
      try {
        await rm(folder, { recursive: true, force: true });
      } catch (error) {
        throw fileSystemError(error, 'delete a dropped scope', folder);
      }
    }
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
