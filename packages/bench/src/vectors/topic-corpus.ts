import { type IEmbedder, type MemoryEntry } from '@reverie/core';
import { tokenize } from '@reverie/core/internal';
import { seededRandom } from '../seeded-random';

/**
 * A deterministic corpus and embedder whose vectors have real neighbourhoods, for `pnpm
 * bench:vectors`: 1,000 topics of 40 made-up words each and 20,000 general words. Entry i is about
 * one topic (topics drawn with a Zipf-like skew, as real memories are), ten of its words and five
 * general words; a query is three words of a topic and one general word.
 *
 * The embedder sums its words' vectors (stop words and unknown words left out): a general word's
 * vector is random, a topic word's is half its topic's random vector and half its own, so entries
 * of one topic cluster and, within it, those sharing a query's words are nearest — as a sentence
 * model's vectors are (a sum of independent random vectors alone would have no clusters at all).
 * It costs some tens of microseconds per text, and a text embedded once is answered from a table
 * after that (an instant model), so a first embedding after the bench's own pass measures the
 * store, not a model.
 */
const TOPICS = 1000;
const WORDS_PER_TOPIC = 40;
const GENERAL_WORDS = 20_000;
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'nu',
  'pe',
  'ra',
  'si',
  'to',
  'va',
  'ze',
  'bri',
  'cho',
  'dra',
  'fen',
  'gul',
  'hor',
  'jin',
  'kel',
  'mor',
  'pax',
];

/** Word n of the vocabulary: four syllables spelled from n, unique and free of stop words. */
function wordOf(n: number): string {
  let word = '';
  let rest = n;
  for (let i = 0; i < 4; i++) {
    word += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  }
  return word;
}

const topicWord = (topic: number, j: number) => wordOf(topic * WORDS_PER_TOPIC + j);
const generalWord = (g: number) => wordOf(TOPICS * WORDS_PER_TOPIC + g);
/** 0…count−1, the low ones far more often (about as word and topic frequencies go). */
const skewed = (random: () => number, count: number) => Math.min(count - 1, Math.floor(Math.exp(random() * Math.log(count + 1))) - 1);

const CATEGORIES = ['general', 'project-context/infra', 'project-context/billing', 'user-preferences/formatting', 'episodes/meetings'];

export function topicEntry(i: number, now: Date): MemoryEntry {
  const random = seededRandom(i * 31 + 7);
  const topic = skewed(random, TOPICS);
  const words: string[] = [];
  for (let k = 0; k < 10; k++) words.push(topicWord(topic, Math.floor(random() * WORDS_PER_TOPIC)));
  for (let k = 0; k < 5; k++) words.splice(Math.floor(random() * words.length), 0, generalWord(skewed(random, GENERAL_WORDS)));
  const created = new Date(now.getTime() - Math.floor(random() * 365) * 86_400_000).toISOString();
  return {
    id: i.toString(16).padStart(12, '0'),
    content: `Note ${i}: ${words.join(' ')}.`,
    // One entry in twenty is under `episodes/meetings`: a narrow filter.
    category: i % 20 === 0 ? CATEGORIES[4]! : CATEGORIES[i % 4]!,
    tags: [],
    createdAt: created,
    updatedAt: created,
    lastSeenAt: created,
    reinforcementCount: 1,
    importance: 0.5,
    metadata: {},
  };
}

export function topicQuery(i: number): string {
  const random = seededRandom(1_000_003 + i);
  const topic = skewed(random, TOPICS);
  const words = [0, 1, 2].map(() => topicWord(topic, Math.floor(random() * WORDS_PER_TOPIC)));
  return `what about ${words.join(' ')} ${generalWord(skewed(random, GENERAL_WORDS))}`;
}

/** The topic of each vocabulary word, built once. */
let topics: Map<string, number> | undefined;
function topicOf(word: string): number | undefined {
  if (!topics) {
    topics = new Map();
    for (let n = 0; n < TOPICS * WORDS_PER_TOPIC; n++) topics.set(wordOf(n), Math.floor(n / WORDS_PER_TOPIC));
    for (let g = 0; g < GENERAL_WORDS; g++) topics.set(generalWord(g), -1);
  }
  return topics.get(word);
}

/** The embedder (see above) at `dimensions` dimensions; its model id names them. */
export function topicEmbedder(dimensions: number): IEmbedder & { texts: number } {
  const cache = new Map<string, Float32Array>();
  const gaussians = (seed: number) => {
    const random = seededRandom(seed);
    const vector = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i += 2) {
      const radius = Math.sqrt(-2 * Math.log(random() || 1e-12));
      const angle = 2 * Math.PI * random();
      vector[i] = radius * Math.cos(angle);
      if (i + 1 < dimensions) vector[i + 1] = radius * Math.sin(angle);
    }
    return vector;
  };
  const topicVectors = new Map<number, Float32Array>();
  const vectorOf = (word: string): Float32Array | undefined => {
    let vector = cache.get(word);
    if (vector) return vector;
    const topic = topicOf(word);
    if (topic === undefined) return undefined;
    let seed = 2166136261;
    for (let i = 0; i < word.length; i++) seed = Math.imul(seed ^ word.charCodeAt(i), 16777619);
    vector = gaussians(seed);
    if (topic >= 0) {
      let shared = topicVectors.get(topic);
      if (!shared) topicVectors.set(topic, (shared = gaussians(topic * 7919 + 13)));
      for (let i = 0; i < dimensions; i++) vector[i] = 0.5 * vector[i]! + 0.5 * shared[i]!;
    }
    cache.set(word, vector);
    return vector;
  };
  // Every text's vector is kept once computed, so the store's first embedding, which asks for
  // texts the bench has embedded before, gets them at once: an instant local model, which makes
  // the store's own cost the one measured.
  const computed = new Map<string, Float32Array>();
  const embedder = {
    modelId: `bench-topic-words-${dimensions}`,
    texts: 0,
    async embed(texts: string[]) {
      embedder.texts += texts.length;
      return texts.map((text) => {
        let sum = computed.get(text);
        if (!sum) {
          sum = new Float32Array(dimensions);
          for (const word of tokenize(text)) {
            const vector = vectorOf(word);
            if (vector) for (let i = 0; i < dimensions; i++) sum[i]! += vector[i]!;
          }
          computed.set(text, sum);
        }
        // The stores copy what they are given into a Float32Array of their own.
        return sum as unknown as number[];
      });
    },
  };
  return embedder;
}
