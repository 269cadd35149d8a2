import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticEntry } from './synthetic-memory';

/**
 * Writes `size` synthetic entries (`syntheticEntry(first)` onwards) straight to `<dataPath>/memory/`
 * as a data directory would hold them (one JSON file per entry), faster than saving them one by
 * one; returns the bytes written.
 */
export function writeMemoryFixture(dataPath: string, size: number, now: Date, first = 0): number {
  let bytes = 0;
  const made = new Set<string>();
  for (let i = first; i < first + size; i++) {
    const entry = syntheticEntry(i, now);
    const dir = join(dataPath, 'memory', ...entry.category.split('/'));
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    const text = `${JSON.stringify(entry, null, 2)}\n`;
    bytes += text.length;
    writeFileSync(join(dir, `${entry.id}.json`), text);
  }
  return bytes;
}
