/**
 * The world of `pnpm bench:temporal`: people whose facts change over months. Each fact (a
 * person's attribute) takes 2–4 values, one after another, first noted on dates months apart;
 * the content of every note names the person and the attribute, as people mention them.
 * Deterministic for a seed.
 */

const PEOPLE = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas'];
const ATTRIBUTES: Array<{ name: string; values: string[] }> = [
  { name: 'home city', values: ['Lyon', 'Porto', 'Berlin', 'Lisbon', 'Madrid', 'Vienna', 'Ghent'] },
  { name: 'employer', values: ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay'] },
  { name: 'code editor', values: ['VSCode', 'Neovim', 'Emacs', 'Zed', 'IntelliJ', 'Sublime'] },
  { name: 'car', values: ['Golf', 'Clio', 'Tesla', 'Corolla', 'Civic', 'Panda'] },
  { name: 'gym', values: ['FitLab', 'UrbanClimb', 'IronHouse', 'PulseStudio', 'CoreBox'] },
  { name: 'phone', values: ['Pixel', 'iPhone', 'Fairphone', 'Galaxy', 'Xperia'] },
];
const FIRST_WORDING = (person: string, attribute: string, value: string) => `${person}'s ${attribute} is ${value}`;
const LATER_WORDINGS = [
  (person: string, attribute: string, value: string) => `${person}'s ${attribute} is now ${value}`,
  (person: string, attribute: string, value: string) => `${person} changed ${attribute}: ${value} from now on (${person}'s ${attribute})`,
  (person: string, attribute: string, value: string) => `Update on ${person}'s ${attribute}: it is ${value}`,
];
const BACKGROUND = [
  'prefers window seats on trains',
  'takes notes in a paper notebook',
  'drinks oat milk',
  'plays chess on Sundays',
  'reads science fiction',
  'walks to work when it is sunny',
];

export interface FactVersion {
  value: string;
  content: string;
  /** When this value was first noted (and became true). */
  at: Date;
}

export interface ChangingFact {
  id: number;
  /** What a question about it says: "Ana home city". */
  query: string;
  versions: FactVersion[];
}

/** A small linear congruential generator: the same world for the same seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const DAY = 86_400_000;

/** Every person × attribute (60 facts), each with 2–4 values first noted 1–4 months apart from `start`. */
export function changingFacts(start: Date, seed = 19): ChangingFact[] {
  const next = random(seed);
  const facts: ChangingFact[] = [];
  for (const person of PEOPLE) {
    for (const attribute of ATTRIBUTES) {
      const count = 2 + Math.floor(next() * 3);
      const values = [...attribute.values].sort(() => next() - 0.5).slice(0, count);
      let at = start.getTime() + Math.floor(next() * 60) * DAY;
      const versions = values.map((value, index) => {
        if (index > 0) at += (30 + Math.floor(next() * 90)) * DAY;
        const wording = index === 0 ? FIRST_WORDING : LATER_WORDINGS[Math.floor(next() * LATER_WORDINGS.length)]!;
        return { value, content: wording(person, attribute.name, value), at: new Date(at) };
      });
      facts.push({ id: facts.length, query: `${person} ${attribute.name}`, versions });
    }
  }
  return facts;
}

/** Unrelated notes about the same people, noted at `at`: what a memory holds besides the facts under test. */
export function backgroundNotes(): string[] {
  return PEOPLE.flatMap((person, index) => [
    `${person} ${BACKGROUND[index % BACKGROUND.length]}`,
    `${person} ${BACKGROUND[(index + 3) % BACKGROUND.length]}`,
  ]);
}

/** The value that held at `at`, or undefined before the fact was first noted. */
export function valueAt(fact: ChangingFact, at: Date): string | undefined {
  return fact.versions.filter((version) => version.at.getTime() <= at.getTime()).at(-1)?.value;
}
