/** One synset (sense) of a WordNet data file, as the thesaurus uses it. */
export interface WordNetSynset {
  /** Its byte offset in the data file: how other synsets point at it. */
  offset: number;
  /** Its one-word lemmas, lower case, without the syntactic markers of adjectives ("(a)", "(p)"), each once. */
  lemmas: string[];
  /** The offsets of its hypernyms (pointer `@`: the broader senses, "hate" → "dislike") in the same file. */
  hypernyms: number[];
}

/** The pointer symbol of a hypernym in WordNet's data files (`@i`, an instance's class, is another). */
const HYPERNYM = '@';

/**
 * The synset a line of a WordNet data file holds, or undefined for a licence line (they begin
 * with two spaces) or an empty one. A line is `offset lex_filenum ss_type w_cnt word lex_id
 * [word lex_id…] p_cnt [symbol offset pos source/target…] … | gloss`, `w_cnt` in hexadecimal and
 * `p_cnt` in decimal; a hypernym is a pointer `@` between whole synsets (source/target `0000`).
 * Pure.
 */
export function synsetOf(line: string): WordNetSynset | undefined {
  if (line === '' || line.startsWith('  ')) return undefined;
  const gloss = line.indexOf(' | ');
  const fields = (gloss < 0 ? line : line.slice(0, gloss)).split(' ');
  const count = Number.parseInt(fields[3] ?? '', 16);
  const lemmas: string[] = [];
  for (let i = 0; i < count; i++) {
    const lemma = fields[4 + i * 2]?.replace(/\([a-z]+\)$/, '').toLowerCase();
    if (lemma && !lemma.includes('_') && !lemmas.includes(lemma)) lemmas.push(detached(lemma));
  }
  const pointersAt = 4 + count * 2;
  const pointers = Number.parseInt(fields[pointersAt] ?? '', 10) || 0;
  const hypernyms: number[] = [];
  for (let i = 0; i < pointers; i++) {
    const at = pointersAt + 1 + i * 4;
    if (fields[at] === HYPERNYM && fields[at + 3] === '0000') hypernyms.push(Number(fields[at + 1]));
  }
  return { offset: Number(fields[0]), lemmas, hypernyms };
}

/**
 * A copy of a string that shares no memory with the one it was cut from: V8 keeps a long
 * substring as a view of its parent, so one lemma kept from a data file's text would keep the
 * whole text (15 MB for nouns) alive.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
