import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../seeded-random';

/**
 * Natural questions the project did not write, over a haystack of observations made from them:
 * LoCoMo's conversations 0–4 (`../shared/data/locomo-dev.json`, CC BY-NC 4.0; read at run time,
 * never copied into the repository). Every observation of a conversation is one document; the
 * haystack repeats them with the speakers' names replaced by name variants until it holds `size`
 * documents, so that each copy is a different pair of people with the same kind of life. A
 * question is asked about one copy (its names replaced the same way), and its evidence is the
 * observations of that copy whose turn ids it cites.
 */
export interface HaystackDocument {
  id: string;
  text: string;
  /** The copy (conversation and name variant) it belongs to, and the turn ids it was drawn from. */
  copy: number;
  evidence: readonly string[];
}

export interface HaystackQuestion {
  text: string;
  copy: number;
  evidence: readonly string[];
  category: number;
}

export interface LocomoHaystack {
  documents: HaystackDocument[];
  questions: HaystackQuestion[];
}

interface LocomoConversation {
  conversation: { speaker_a: string; speaker_b: string };
  observation: Record<string, Record<string, Array<[string, string | string[]]>>>;
  qa: Array<{ question: string; evidence?: string[]; category: number }>;
}

/** Where the data is: `LOCOMO_PATH`, else `../shared/data/locomo-dev.json` from the repository's root. */
export function locomoPath(): string | undefined {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
  const path = process.env.LOCOMO_PATH ?? join(root, '..', 'shared', 'data', 'locomo-dev.json');
  return existsSync(path) ? path : undefined;
}

const ONSETS = ['b', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'ch', 'cl', 'tr', 'sh', 'st'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io'];
const ENDINGS = ['', 'n', 'r', 'l', 's', 'th', 'na', 'la', 'ra', 'ne', 'ric', 'son', 'lyn'];

/** The `n`-th name variant: a made-up first name ("Traelyn", "Bosa"), the same for the same `n`. */
export function nameVariant(n: number): string {
  const random = seededRandom(n * 7919 + 17);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const name = `${pick(ONSETS)}${pick(VOWELS)}${pick(ONSETS)}${pick(VOWELS)}${pick(ENDINGS)}`;
  return name[0]!.toUpperCase() + name.slice(1);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The haystack of `size` observations and `questionCount` questions (categories 1–4, the ones
 * with evidence), each about a copy chosen at random with a fixed seed.
 */
export function locomoHaystack(path: string, size: number, questionCount: number): LocomoHaystack {
  const conversations = JSON.parse(readFileSync(path, 'utf8')) as LocomoConversation[];
  const observations = conversations.map((conversation) =>
    Object.values(conversation.observation).flatMap((bySpeaker) =>
      Object.values(bySpeaker).flatMap((list) =>
        list.map(([text, evidence]) => ({ text, evidence: Array.isArray(evidence) ? evidence : [evidence] })),
      ),
    ),
  );
  const perRound = observations.reduce((sum, list) => sum + list.length, 0);
  const rounds = Math.ceil(size / perRound);
  const documents: HaystackDocument[] = [];
  const renamers: Array<(text: string) => string> = [];
  let variant = 0;
  for (let round = 0; round < rounds; round++) {
    conversations.forEach((conversation, c) => {
      const copy = renamers.length;
      const names = [conversation.conversation.speaker_a, conversation.conversation.speaker_b];
      // Round 0 keeps the names as LoCoMo has them; later rounds give each speaker a variant.
      const replacements = new Map(names.map((name) => [name, round === 0 ? name : nameVariant(variant++)]));
      const pattern = new RegExp(`\\b(${names.map(escapeRegExp).join('|')})\\b`, 'g');
      const rename = (text: string) => text.replace(pattern, (name) => replacements.get(name) ?? name);
      renamers.push(rename);
      for (const { text, evidence } of observations[c]!) {
        if (documents.length === size) return;
        documents.push({ id: documents.length.toString(16).padStart(12, '0'), text: rename(text), copy, evidence });
      }
    });
  }
  const copies = renamers.length;
  const random = seededRandom(37);
  const asked = conversations.flatMap((conversation, c) =>
    conversation.qa
      .filter((qa) => qa.category >= 1 && qa.category <= 4 && (qa.evidence?.length ?? 0) > 0)
      .map((qa) => ({ ...qa, conversation: c })),
  );
  const questions: HaystackQuestion[] = [];
  for (let q = 0; q < questionCount; q++) {
    const qa = asked[Math.floor(random() * asked.length)]!;
    // A copy of the question's conversation that the haystack holds whole.
    const fullCopies = Math.floor(size / perRound);
    const round = Math.floor(random() * Math.max(1, fullCopies));
    const copy = Math.min(copies - 1, round * conversations.length + qa.conversation);
    questions.push({ text: renamers[copy]!(qa.question), copy, evidence: qa.evidence!, category: qa.category });
  }
  return { documents, questions };
}

/**
 * Evidence recall of a ranked list (the measure `../shared/data/README.md` describes): the share of
 * the question's evidence turn ids covered by the evidence of the top `depth` documents of its
 * own copy.
 */
export function evidenceRecall(question: HaystackQuestion, ranked: readonly HaystackDocument[], depth: number): number {
  const covered = new Set<string>();
  for (const document of ranked.slice(0, depth)) {
    if (document.copy !== question.copy) continue;
    for (const turn of document.evidence) covered.add(turn);
  }
  return question.evidence.filter((turn) => covered.has(turn)).length / question.evidence.length;
}
