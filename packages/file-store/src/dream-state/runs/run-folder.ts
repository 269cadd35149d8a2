import { writeSync } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReverieError } from '@reverie/core';
import { ownValue, setOwn } from '@reverie/core/internal';
import { fsyncDirectory, syncFiles, writeFileAtomic, writeFileAtomicUnsynced } from '../../fs/atomic-write';
import {
  type ArchiveRecord,
  type DreamRun,
  type JournalLine,
  journalLineSchema,
  type JournalWriter,
  type PassPlanFile,
  passPlanFileSchema,
  type RunManifest,
  runManifestSchema,
} from '@reverie/dream-state';
import { runFolderName, runsDir } from '../dream-state-paths';

/** What `archive/<pass>.json` holds: kind → key → the record as it was. */
type ArchiveBundle = Partial<Record<ArchiveRecord['kind'], Record<string, unknown>>>;

/**
 * The folder of one run (SPEC O7, O8): `_system/dreams/runs/<date>-<runId>/` with the manifest,
 * the prompts and replies, each pass's validated plan, an archive of every record the run will
 * replace or delete, and a journal of the operations applied. Everything a step needs to be
 * finished or undone is written and fsynced before the step touches a store.
 */
export class RunFolder implements DreamRun {
  /** Artifacts written since the last `syncArtifacts`, not flushed to disk yet. */
  private unsynced: string[] = [];
  /** Archive files read or written through this object, by pass. */
  private readonly archives = new Map<string, ArchiveBundle>();

  private constructor(
    readonly dir: string,
    private manifest: RunManifest,
  ) {}

  static async create(
    dataPath: string,
    runId: string,
    trigger: string,
    startedAt: Date,
    links: { retryOf?: string; planId?: string } = {},
  ): Promise<RunFolder> {
    const dir = join(runsDir(dataPath), runFolderName(runId, startedAt));
    await mkdir(join(dir, 'archive'), { recursive: true });
    const folder = new RunFolder(dir, {
      schemaVersion: 1,
      runId,
      trigger,
      startedAt: startedAt.toISOString(),
      status: 'running',
      passes: [],
      ...(links.retryOf === undefined ? {} : { retryOf: links.retryOf }),
      ...(links.planId === undefined ? {} : { planId: links.planId }),
    });
    await folder.saveManifest();
    return folder;
  }

  /** Opens the folder of `runId`; undefined when there is none. */
  static async open(dataPath: string, runId: string): Promise<RunFolder | undefined> {
    const names = await readdir(runsDir(dataPath)).catch(() => [] as string[]);
    const name = names.find((candidate) => candidate.endsWith(`-${runId}`));
    if (!name) return undefined;
    const dir = join(runsDir(dataPath), name);
    const manifest = runManifestSchema.parse(JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')));
    return new RunFolder(dir, manifest);
  }

  /** Every run folder, oldest first, with its manifest (unreadable ones are skipped). */
  static async list(dataPath: string): Promise<Array<{ dir: string; manifest: RunManifest }>> {
    const names = (await readdir(runsDir(dataPath)).catch(() => [] as string[])).sort();
    const runs: Array<{ dir: string; manifest: RunManifest }> = [];
    for (const name of names) {
      const dir = join(runsDir(dataPath), name);
      try {
        runs.push({ dir, manifest: runManifestSchema.parse(JSON.parse(await readFile(join(dir, 'run.json'), 'utf8'))) });
      } catch {
        // an unreadable run is left out
      }
    }
    return runs;
  }

  get runId(): string {
    return this.manifest.runId;
  }

  get state(): Readonly<RunManifest> {
    return this.manifest;
  }

  /** The folder, as `DreamRun` names where a run is. */
  get location(): string {
    return this.dir;
  }

  async update(change: Partial<RunManifest>): Promise<void> {
    this.manifest = { ...this.manifest, ...change };
    await this.saveManifest();
  }

  /**
   * Writes an artifact (a prompt, a reply, a pass's selection, the report) atomically: a reader or
   * a restarted process sees it whole. It reaches the disk with the others at the next
   * `syncArtifacts` — before the next plan is recorded and before the run is marked finished — so
   * a run with many model calls waits for the disk a few times, not twice per call.
   */
  async writeArtifact(name: string, content: string): Promise<void> {
    if (!/^[\w.-]+$/.test(name)) throw new ReverieError('INVALID_INPUT', `Invalid artifact name ${JSON.stringify(name)}.`);
    const path = join(this.dir, name);
    await writeFileAtomicUnsynced(path, content);
    this.unsynced.push(path);
  }

  /** An artifact's content; undefined when there is none. */
  async readArtifact(name: string): Promise<string | undefined> {
    if (!/^[\w.-]+$/.test(name)) return undefined;
    return readFile(join(this.dir, name), 'utf8').catch(() => undefined);
  }

  /** The files of the folder (the manifest, plans, journal and artifacts; not the archive), sorted. */
  async listArtifacts(): Promise<string[]> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort();
  }

  /** Flushes the artifacts written since the last call (their fsyncs overlap), then the folder. */
  async syncArtifacts(): Promise<void> {
    const paths = [...new Set(this.unsynced)];
    this.unsynced = [];
    if (paths.length > 0) await syncFiles(paths);
  }

  /** Writes a pass's plan and marks it as the pass being applied (both fsynced, with the artifacts before them). */
  async writePlan(plan: PassPlanFile): Promise<void> {
    await this.syncArtifacts();
    await writeFileAtomic(join(this.dir, `plan.${plan.pass}.json`), `${JSON.stringify(plan, null, 2)}\n`);
    await this.update({ passes: [...this.manifest.passes.filter((p) => p !== plan.pass), plan.pass], applying: plan.pass });
  }

  async readPlan(pass: string): Promise<PassPlanFile> {
    return passPlanFileSchema.parse(JSON.parse(await readFile(join(this.dir, `plan.${pass}.json`), 'utf8')));
  }

  /**
   * Keeps records as they were before `pass` touched them (per pass: two passes may touch one
   * record), in one file per pass, `archive/<pass>.json`: kind → key → record. A record archived
   * already (by the run before a crash, which recovery archives again) keeps its first pre-image.
   * The file is on disk when this returns: one fsync however many records.
   */
  async archive(pass: string, records: readonly ArchiveRecord[]): Promise<void> {
    if (records.length === 0) return;
    const bundle = structuredClone((await this.archiveBundle(pass)) ?? {});
    for (const { kind, key, record } of records) {
      const ofKind = (bundle[kind] ??= {});
      if (!Object.hasOwn(ofKind, key)) setOwn(ofKind, key, record);
    }
    await writeFileAtomic(this.archiveFile(pass), `${JSON.stringify(bundle, null, 2)}\n`);
    this.archives.set(pass, bundle);
  }

  /** A record as `pass` archived it; runs written before the archive was one file kept one file per record. */
  async readArchive(pass: string, kind: ArchiveRecord['kind'], key: string): Promise<unknown | undefined> {
    const bundle = await this.archiveBundle(pass);
    const archived = bundle?.[kind] === undefined ? undefined : ownValue(bundle[kind], key);
    if (archived !== undefined) return structuredClone(archived);
    try {
      return JSON.parse(await readFile(join(this.dir, 'archive', pass, kind, `${encodeURIComponent(key)}.json`), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private archiveFile(pass: string): string {
    return join(this.dir, 'archive', `${pass}.json`);
  }

  /** The archive file of `pass`, read once per folder object; undefined when there is none. */
  private async archiveBundle(pass: string): Promise<ArchiveBundle | undefined> {
    if (!this.archives.has(pass)) {
      try {
        this.archives.set(pass, JSON.parse(await readFile(this.archiveFile(pass), 'utf8')) as ArchiveBundle);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        return undefined;
      }
    }
    return this.archives.get(pass);
  }

  /**
   * Opens the journal for appending, one line per operation applied: after `append` returns, the
   * step is on record for any process, even if this one is killed. The lines reach the disk at
   * `close` (the end of the pass, one fsync): a power cut before that may lose the last lines,
   * which recovery handles — operations are idempotent, and a delete that finds its record gone
   * while the archive holds it counts as applied (see `applyJournalled`). The file is opened at
   * the first line and stays open until `close`. A line is written synchronously: a short append
   * to the page cache takes microseconds, where a write through the thread pool made the pass
   * wait a round trip per operation (a pass applies hundreds).
   */
  async openJournal(): Promise<JournalWriter> {
    const path = join(this.dir, 'journal.jsonl');
    let handle: FileHandle | undefined;
    return {
      append: async (line) => {
        handle ??= await open(path, 'a');
        writeWhole(handle.fd, `${JSON.stringify(line)}\n`);
      },
      close: async () => {
        if (!handle) return this.syncJournal();
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      },
    };
  }

  /** Flushes the journal to disk, as another process (or a run before a crash) left it. */
  private async syncJournal(): Promise<void> {
    let handle;
    try {
      handle = await open(join(this.dir, 'journal.jsonl'), 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** The journal so far; a torn last line (a crash mid-append) is ignored. */
  async readJournal(): Promise<JournalLine[]> {
    const text = await readFile(join(this.dir, 'journal.jsonl'), 'utf8').catch(() => '');
    const lines: JournalLine[] = [];
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      const parsed = journalLineSchema.safeParse(safeJson(raw));
      if (parsed.success) lines.push(parsed.data);
    }
    return lines;
  }

  private async saveManifest(): Promise<void> {
    await writeFileAtomic(join(this.dir, 'run.json'), `${JSON.stringify(this.manifest, null, 2)}\n`);
    await fsyncDirectory(this.dir);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Writes all of `text` to `fd` synchronously (a write may take fewer bytes than it was given). */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}
