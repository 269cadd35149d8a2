import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `folder`, binary ones included. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files under `folder` whose bytes, read as Latin-1 or UTF-8, hold one of `texts` in any letter case. */
export function filesHolding(folder: string, ...texts: string[]): string[] {
  return filesUnder(folder).filter((file) => {
    const bytes = readFileSync(file);
    const read = [bytes.toString('latin1').toLowerCase(), bytes.toString('utf8').toLowerCase()];
    return texts.some((text) => read.some((content) => content.includes(text.toLowerCase())));
  });
}
