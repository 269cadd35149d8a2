import { CursorFiles } from './cursor-files';
import { ConsolidationCursorFile } from './consolidation-cursor-file';
import { type ConsolidationCursor, type SeenUpdate } from '@reverie/dream-state';
import type { DreamCursorStore } from '@reverie/dream-state';

/**
 * Cursors as files in `_system/dreams/cursors/`: `<pass>.json`, and for the consolidation cursor
 * its fingerprint files beside it (see `ConsolidationCursorFile`).
 */
export class FileCursorStore implements DreamCursorStore {
  private readonly files: CursorFiles;

  constructor(private readonly dataPath: string) {
    this.files = new CursorFiles(dataPath);
  }

  read(pass: string): Promise<unknown> {
    return this.files.read(pass);
  }

  write(pass: string, value: unknown): Promise<void> {
    return this.files.write(pass, value);
  }

  readConsolidation(pass: string): Promise<ConsolidationCursor> {
    return new ConsolidationCursorFile(this.dataPath, pass).read();
  }

  writeConsolidation(pass: string, cursor: ConsolidationCursor, before: ConsolidationCursor, update?: SeenUpdate): Promise<void> {
    return new ConsolidationCursorFile(this.dataPath, pass).write(cursor, before, update);
  }
}
