import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isTemporaryFile } from './atomic-write';
import type { CollectionRecords } from './collection-records';
import type { DocumentLayout } from './document-layout';
import type { RecordFiles } from './record-files';

/** Each folder under the root ('' for the root): its modification time (ms) and how many record files it held. */
export type FolderTimes = Map<string, [number, number]>;

/**
 * Record files changed this close to (or after) the moment a snapshot was taken are re-read after
 * an open from it: file-system timestamps are coarse, and an edit made in place, outside Reverie,
 * leaves no journal line.
 */
export const RACY_MS = 2000;

/** What the reconciliation compares and changes: the files on disk and the records in memory. */
export interface ReconciledCollection<T extends object> {
  files: RecordFiles<T>;
  records: CollectionRecords<T>;
  layout: DocumentLayout<T>;
}

/**
 * Compares the records with the files on disk: drops records whose file is gone, reads files
 * no record accounts for. Only the folders that may have changed are listed: with `folders`
 * (each folder's modification time when the snapshot was taken, and that moment), a folder
 * whose time is unchanged and was not racily close to that moment holds the same names as
 * then; every other folder, and every folder under a new one, is listed. Without `folders`,
 * everything is listed. Returns the folder times read before listing (for the next snapshot)
 * and whether a record changed, or undefined when a file holds a record that is also elsewhere
 * (a crash mid-move), which only a full scan resolves.
 */
export async function reconcileWithDirectory<T extends object>(
  { files: recordFiles, records, layout }: ReconciledCollection<T>,
  folders?: { times: FolderTimes; takenAt: number },
): Promise<{ times: FolderTimes; changed: boolean } | undefined> {
  const times: FolderTimes = new Map();
  const children = new Map<string, string[]>();
  if (folders) {
    for (const folder of folders.times.keys()) {
      if (folder === '') continue;
      const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
      children.set(parent, [...(children.get(parent) ?? []), folder]);
    }
  }
  /** Listed folders and the record files found in each. */
  const listed = new Map<string, Set<string>>();
  const temporary: string[] = [];
  const visit = (folder: string): void => {
    const dir = folder === '' ? recordFiles.root : recordFiles.absolute(folder);
    let mtime: number;
    try {
      mtime = statSync(dir).mtimeMs;
    } catch {
      listed.set(folder, new Set());
      return;
    }
    const known = folders?.times.get(folder)?.[0];
    times.set(folder, [mtime, folders?.times.get(folder)?.[1] ?? 0]);
    if (known !== undefined && known === mtime && known < folders!.takenAt - RACY_MS) {
      for (const child of children.get(folder) ?? []) visit(child);
      return;
    }
    const files = new Set<string>();
    listed.set(folder, files);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) {
        if (entry.isFile() && isTemporaryFile(entry.name)) temporary.push(join(dir, entry.name));
        continue;
      }
      if (entry.isDirectory()) visit(folder === '' ? entry.name : `${folder}/${entry.name}`);
      else if (entry.isFile() && entry.name.endsWith('.json')) files.add(entry.name);
    }
    times.set(folder, [mtime, files.size]);
  };
  visit('');
  for (const file of temporary) await recordFiles.removeStaleTemporary(file);
  // A folder not reached is gone (with its parent listed, or an ancestor gone). Only a listed
  // or gone folder that holds record files, or held some, needs the records compared.
  const gone = (folder: string) => !times.has(folder);
  const held = (folder: string) => (folders?.times.get(folder)?.[1] ?? 0) > 0;
  if (
    folders &&
    ![...listed].some(([folder, files]) => files.size > 0 || held(folder)) &&
    ![...folders.times.keys()].some((folder) => gone(folder) && held(folder))
  ) {
    return { times, changed: false };
  }

  let changed = false;
  const accounted = new Set<string>();
  for (const key of [...records.map.keys()]) {
    const path = records.map.pathOf(key)!;
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    const files = listed.get(folder);
    if (!files && !gone(folder)) continue;
    if (files?.has(path.slice(slash + 1))) {
      accounted.add(path);
      continue;
    }
    records.forget(key, records.map.get(key)!);
    changed = true;
  }
  for (const [folder, files] of listed) {
    for (const name of files) {
      const path = folder === '' ? name : `${folder}/${name}`;
      if (accounted.has(path)) continue;
      const item = await recordFiles.read(recordFiles.absolute(path));
      if (!item) continue;
      const key = layout.keyOf(item.record);
      if (records.map.has(key) && records.map.pathOf(key) !== path) return undefined;
      const existing = records.map.get(key);
      await records.admit(item.record, existing, path);
      changed = true;
    }
  }
  return { times, changed };
}
