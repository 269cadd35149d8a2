import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '@reverie/file-store/internal';
import { holdsNeedle, scrubJson } from './erasure-needles';

/** One place an erasure found the text in, and what it did there. */
export interface ErasedPlace {
  /** A file (relative to the data directory) or a table (`table reverie_…`). */
  place: string;
  /** `removed`: the file or rows went; `rewritten`: the records holding the text left it. */
  action: 'removed' | 'rewritten';
  /** How many records (lines, rows, array elements…) holding the text went. Absent for a whole file. */
  records?: number;
}

/** What a walk of the files or tables found. */
export interface ErasureWalk {
  places: ErasedPlace[];
  /** How many files or tables were read. */
  checked: number;
  /** The dream runs whose archives, plans or artifacts held the text: they can no longer be undone. */
  runs: string[];
}

/** The dream run a file under `_system/dreams/runs/<date>-<runId>/` belongs to. Pure. */
export function runOfPath(path: string): string | undefined {
  const parts = path.split(sep);
  const at = parts.indexOf('runs');
  if (at < 1 || parts[at - 1] !== 'dreams' || at + 2 > parts.length - 1) return undefined;
  return /^\d{4}-\d{2}-\d{2}-(.+)$/.exec(parts[at + 1]!)?.[1];
}

/** Every file under `folder`; with `skipTop`, not those in its `scopes/` folder (other scopes' data). */
export async function filesUnder(folder: string, skipTop: boolean): Promise<string[]> {
  let names: import('node:fs').Dirent[];
  try {
    names = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const name of names) {
    const path = join(folder, name.name);
    // Other scopes live in `scopes/` under the data directory of the default one.
    if (name.isDirectory()) {
      if (!(skipTop && name.name === 'scopes')) files.push(...(await filesUnder(path, false)));
    } else if (name.isFile()) files.push(path);
  }
  return files;
}

/** The text of one file with the records holding a needle taken out: undefined to remove the file, the same text when none held one. */
function scrubText(path: string, text: string, needles: readonly string[]): { text: string | undefined; records: number } {
  const extension = extname(path);
  if (extension === '.json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return holdsNeedle(text, needles) ? { text: undefined, records: 1 } : { text, records: 0 };
    }
    const scrubbed = scrubJson(value, needles);
    if (scrubbed.drop) return { text: undefined, records: 1 };
    return scrubbed.changed ? { text: `${JSON.stringify(scrubbed.value, null, 2)}\n`, records: 1 } : { text, records: 0 };
  }
  // JSON lines, Markdown, plain text and anything else line by line: a line holding the text goes
  // (a JSON line is compared on its values, so a field name never matches).
  let records = 0;
  const lines = text.split('\n').flatMap((line) => {
    let parsed: unknown;
    let isJson = false;
    if (extension === '.jsonl') {
      try {
        parsed = JSON.parse(line);
        isJson = true;
      } catch {}
    }
    const scrubbed = isJson ? scrubJson(parsed, needles) : undefined;
    if (scrubbed ? scrubbed.drop : holdsNeedle(line, needles)) {
      records += 1;
      return [];
    }
    if (scrubbed && !scrubbed.drop && scrubbed.changed) {
      records += 1;
      return [JSON.stringify(scrubbed.value)];
    }
    return [line];
  });
  if (records === 0) return { text, records: 0 };
  return { text: lines.join('\n'), records };
}

/** True when a file that is not text (a snapshot, a vector file) holds a needle in its bytes, read as UTF-8 or Latin-1. */
function bytesHold(bytes: Buffer, needles: readonly string[]): boolean {
  return holdsNeedle(bytes.toString('utf8'), needles) || holdsNeedle(bytes.toString('latin1'), needles);
}

const TEXT_EXTENSIONS = new Set(['.json', '.jsonl', '.md', '.txt', '.sorted']);

/** True for a file read as text, record by record (JSON, JSON lines, Markdown, change journals); false for a binary one. Pure. */
export function isTextFile(path: string): boolean {
  return TEXT_EXTENSIONS.has(extname(path)) || basename(path).startsWith('.changes');
}

/**
 * SPEC B14, erase: every file under `dataPath` (another scope's folder `scopes/` aside, and the
 * files `skip` says are handled elsewhere) with the records holding a needle taken out: a JSON
 * file rewritten without them or removed, a JSON lines or text file without the lines, a file of
 * another kind (a snapshot, a vector file) removed. Each rewrite is atomic, so a crash leaves a
 * file before or after it, and a walk run again finds only what is left.
 */
export async function eraseInFiles(
  dataPath: string,
  needles: readonly string[],
  options: {
    skip: (relativePath: string) => boolean;
    skipScopes: boolean;
    /** Told the runs about to be rewritten before anything is written (so a crash cannot lose them). */
    beforeWrite: (runs: string[]) => Promise<void>;
    afterEach: () => Promise<void>;
  },
): Promise<ErasureWalk> {
  const walk: ErasureWalk = { places: [], checked: 0, runs: [] };
  const changes: Array<{ path: string; place: string; text: string | undefined; records: number }> = [];
  for (const path of await filesUnder(dataPath, options.skipScopes)) {
    const place = relative(dataPath, path);
    if (options.skip(place)) continue;
    walk.checked += 1;
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const { text, records } = isTextFile(path)
      ? scrubText(path, bytes.toString('utf8'), needles)
      : bytesHold(bytes, needles)
        ? { text: undefined, records: 1 }
        : { text: '', records: 0 };
    if (records > 0) changes.push({ path, place, text, records });
  }
  walk.runs = [...new Set(changes.flatMap(({ place }) => runOfPath(place) ?? []))];
  if (changes.length > 0) await options.beforeWrite(walk.runs);
  for (const { path, place, text, records } of changes) {
    if (text === undefined) {
      await rm(path, { force: true });
      walk.places.push({ place, action: 'removed' });
    } else {
      await writeFileAtomic(path, text);
      walk.places.push({ place, action: 'rewritten', records });
    }
    await options.afterEach();
  }
  return walk;
}
