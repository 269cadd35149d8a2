import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Files the file store set aside as unreadable: everything inside a `.quarantine/` folder of
 * the data directory (memory, skills, logs, working memory each keep their own), at any depth,
 * as paths relative to `dataPath`. Outside those folders only folders are walked, never the entries.
 */
export async function findQuarantined(dataPath: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === '.lock') continue;
      const path = join(dir, entry.name);
      if (entry.name === '.quarantine') {
        // The quarantine keeps a file's folders (`memory/.quarantine/<category>/<id>.json.<time>.<random>`).
        const files = await readdir(path, { withFileTypes: true, recursive: true }).catch(() => []);
        found.push(...files.filter((file) => file.isFile()).map((file) => relative(dataPath, join(file.parentPath, file.name))));
      } else if (relative(dataPath, path) !== join('_system', 'dreams')) {
        await walk(path);
      }
    }
  };
  await walk(dataPath);
  return found.sort();
}
