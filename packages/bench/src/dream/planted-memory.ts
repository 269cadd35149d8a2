// Over 400 lines on purpose: the synthetic memory's vocabulary and planted groups are data, kept in
// one file so a bench reader sees everything the consolidation bench measures against.
import type { MemoryDraft } from '@reverie/core';
import { seededRandom, shuffled } from '../seeded-random';

// A deterministic synthetic long-term memory with planted answers for the consolidation bench:
//
// - background entries: one to three sentences about people, work, home and travel, drawn from a
//   vocabulary wide enough that unrelated notes do not all look alike (unique after a rough
//   normalisation, so the host's pre-pass has nothing to fold);
// - planted facts: one lasting fact about a person with a rare name ("Anouk Okonkwo's gym locker
//   code is 4471"), written in two or three different wordings (a duplicate group the model must
//   fold; no two wordings are equal after normalisation) or in one (a single fact that churn may
//   repeat later). Every wording carries the same full name and value and no other name or
//   number, so the longest wording keeps every fact token of the others;
// - look-alikes: two notes with the same wording template about different real-world moments
//   (different dates in the text or, for half of them, the very same text), each with its own
//   `subject.point`. They must never be merged.

/** What an entry stands for: the key the bench scores merges against. */
export type Origin = { kind: 'background' } | { kind: 'fact'; fact: number } | { kind: 'moment'; pair: number };

export interface PlantedEntry {
  draft: MemoryDraft & { id: string; createdAt: string };
  origin: Origin;
}

/** What one churn batch holds, by kind. */
export interface ChurnMix {
  /** New wordings of facts that already have two or more members (the group grows). */
  extended: number;
  /** Second wordings of single facts (a group forms across cycles). */
  paired: number;
  /** New moments of look-alike templates (must stay apart). */
  moments: number;
  unrelated: number;
}

const DAY_MS = 86_400_000;

const SUBJECTS = [
  'The user',
  'Ana',
  'Marco',
  'Priya',
  'Sam',
  'Our CFO',
  'The designer',
  'Kenji',
  'Fatima',
  'Lucas',
  'The support lead',
  'The landlord',
  'Dr. Weiss',
  'The product manager',
  'Noah',
  'Ingrid',
  'Tomás',
  'The QA team',
  'The intern',
  'Olu',
  'Mei',
  'The accountant',
  'Jonas',
  'Aisha',
  'The sales team',
  'Leila',
  'The CTO',
  'Bruno',
  'Hana',
  "The user's sister",
  'The neighbour',
  'The plumber',
  'The team',
  'The client',
  'The on-call engineer',
  'Grandpa Joe',
];
const VERBS = [
  'prefers',
  'asked about',
  'decided on',
  'complained about',
  'scheduled',
  'reviewed',
  'migrated',
  'forgot',
  'approved',
  'rejected',
  'is worried about',
  'wants updates on',
  'postponed',
  'cancelled',
  'is excited about',
  'double-checked',
  'signed up for',
  'paid for',
  'recommended',
  'is researching',
  'wants to revisit',
  'delegated',
  'blocked time for',
  'keeps mixing up',
  'finished',
  'started',
  'booked',
  'returned',
  'renewed',
  'compared prices for',
  'read up on',
  'wrote a draft of',
  'took notes on',
  'argued against',
  'volunteered for',
  'asked for help with',
];
const TOPICS = [
  'the quarterly budget',
  'kubernetes upgrades',
  'the billing service',
  'postgres backups',
  'the onboarding flow',
  'dark mode',
  'weekly status emails',
  'the Lisbon offsite',
  'invoice numbering',
  'the mobile release',
  'grafana dashboards',
  'vendor contracts',
  'the hiring plan',
  'terraform modules',
  'customer churn',
  'the design system',
  'API rate limits',
  'travel to Berlin',
  'the incident review',
  'password rotation',
  'the data warehouse',
  'slack notifications',
  'the roadmap',
  'SSO with Okta',
  'the kitchen renovation',
  'a new espresso machine',
  'the car insurance renewal',
  'piano lessons',
  'the marathon training plan',
  'the tax return',
  'a birthday present for Mei',
  'the summer holiday in Crete',
  'the dentist bill',
  'composting at home',
  'the book club list',
  'a standing desk',
  'the home network',
  'solar panels',
  'the mortgage rate',
  'the school run rota',
  'sourdough starters',
  'the garden fence',
  'the dog walker',
  'the guest room',
  'noise-cancelling headphones',
  'the wedding playlist',
  'a Spanish course',
  'the climbing gym',
  'meal prep on Sundays',
  'the electricity tariff',
  'the security audit',
  'feature flags',
  'the load balancer',
  'the release checklist',
  'flaky integration tests',
  'the CI pipeline',
  'code review etiquette',
  'the pricing page',
  'the customer survey',
  'the support backlog',
  'the analytics schema',
  'the GDPR request process',
  'the partner API',
  'cost allocation tags',
  'the disaster recovery drill',
  'the iOS crash reports',
  'the Android beta',
  'the search ranking',
  'the recommendation model',
  'the annual report',
  'the board deck',
  'expense policy',
  'the office move',
  'the holiday rota',
  'conference talks',
  'the internal wiki',
  'the style guide',
  'accessibility fixes',
  'the localisation backlog',
  'the warehouse robots',
  'shipping delays',
  'the returns policy',
  'the loyalty programme',
  'the newsletter',
  'podcast sponsorships',
  'the brand refresh',
  'the trade show booth',
  'printer drivers',
  'laptop refresh cycle',
  'VPN access',
  'the shared calendar',
  'standup timing',
  'retro formats',
  'OKR drafts',
  'the performance reviews',
  'the salary bands',
  'parental leave policy',
  'the team lunch',
  'the bike-to-work scheme',
  'the visa paperwork',
  'flight upgrades',
  'the hotel in Kyoto',
  'train tickets to Milan',
  'the rental car',
  'a museum membership',
  'the photo backup',
  'the family tree project',
  'the cat vaccinations',
  'the aquarium filter',
  'running shoes',
  'the physiotherapy exercises',
  'sleep tracking',
  'the blood test results',
  'vitamin D',
  'the allotment',
  'tomato seedlings',
  'the roof leak',
  'the boiler service',
  'window cleaning',
  'the moving boxes',
  'the charity run',
  'volunteering at the food bank',
  'the chess club',
  'board game night',
  'the jazz concert',
  'the film festival',
  'the camera lens',
  'the drone licence',
  'the sailing course',
  'ski passes',
  'the cabin booking',
];
const DETAILS = [
  'because the last attempt failed on a Friday',
  'after the outage in March',
  'with a deadline at the end of the month',
  'and wants a summary every Monday',
  'using the staging cluster first',
  'only when the finance team signs off',
  'in metric units',
  'in bullet points rather than prose',
  'while travelling with limited connectivity',
  'for the EMEA region',
  'with two reviewers on every change',
  'without waking anyone up at night',
  'as long as costs stay under budget',
  'before the kids go back to school',
  'once the weather improves',
  'after talking it through with Ana',
  'but only on weekdays',
  'and keeps a spreadsheet of the options',
  'since the old one broke',
  'to save money next year',
  'as a surprise',
  'with a reminder two days before',
  'and wants receipts kept',
  'in the shared drive folder',
  'for the second time this year',
  'after reading three reviews',
  'because the contract ends soon',
  'with help from the neighbour',
  'in the early morning slot',
  'and asked not to be reminded again',
  'during the quiet week between releases',
  'with the new vendor',
  'at the usual place',
  'in small batches',
  'on the condition that nothing breaks',
  'to unblock the team',
  'after the customer escalated',
  'and expects a decision by Thursday',
  'with the old settings as fallback',
  'as discussed at the retro',
  'if the budget allows',
  'in a calendar invite rather than chat',
  'with photos attached',
  'for the whole family',
  'before the price goes up',
  'while the office is closed',
  'as a test with five users',
  'and wants it documented',
];
const BACKGROUND_CATEGORIES = [
  'user-preferences/formatting',
  'user-preferences/schedule',
  'project-context/infra',
  'project-context/billing',
  'project-context/release',
  'episodes/meetings',
  'anti-patterns/deploy',
  'general',
  'personal/home',
  'personal/health',
  'travel/plans',
  'people/contacts',
];
const OPENERS = ['', '', '', 'Note: ', 'Reminder: ', 'Heads-up: ', 'Learned today: ', 'From the weekly call: '];

/** First and last names rare enough that a fact's person is found by name. */
const FIRST_NAMES = [
  'Anouk',
  'Bartek',
  'Cosima',
  'Dagny',
  'Eero',
  'Folasade',
  'Gianluca',
  'Hiroko',
  'Idris',
  'Jovana',
  'Kaito',
  'Liesel',
  'Mateus',
  'Nkechi',
  'Oskar',
  'Paloma',
  'Quinlan',
  'Rasmus',
  'Saoirse',
  'Thiago',
  'Ulla',
  'Vesna',
  'Wendell',
  'Ximena',
  'Yusuf',
  'Zofia',
  'Ambrose',
  'Brigida',
  'Caspian',
  'Dervla',
  'Emrys',
  'Fenna',
  'Gustavo',
  'Halvard',
  'Ilse',
  'Jarrah',
  'Kalinda',
  'Leopold',
  'Marisol',
  'Nils',
  'Odalys',
  'Pim',
  'Rowena',
  'Stellan',
  'Tamsin',
  'Ugo',
  'Valentina',
  'Wilhelmina',
  'Yara',
  'Zoltan',
  'Aurelio',
  'Beatrix',
  'Cormac',
  'Delphine',
  'Evander',
  'Frida',
  'Gwendolyn',
  'Horatio',
  'Isolde',
  'Jasper',
];
const LAST_NAMES = [
  'Okonkwo',
  'Brandvold',
  'Castellanos',
  'Dubrovsky',
  'Eriksen',
  'Fairweather',
  'Gallagher',
  'Hakimi',
  'Ishikawa',
  'Jablonski',
  'Kowalczyk',
  'Lindqvist',
  'Moreau',
  'Nakamura',
  'Oyelaran',
  'Petrakis',
  'Quintero',
  'Rautio',
  'Szabo',
  'Takahashi',
  'Ueda',
  'Vasquez',
  'Whitlock',
  'Xiong',
  'Yilmaz',
  'Zeller',
  'Abernathy',
  'Bjornstad',
  'Cardenas',
  'Delacroix',
  'Esposito',
  'Fitzgerald',
  'Grimaldi',
  'Haverkamp',
  'Iwasaki',
  'Juarez',
  'Kristiansen',
  'Lombardi',
  'Mwangi',
  'Novak',
  'Ostrowski',
  'Pacheco',
  'Ravenscroft',
  'Sandoval',
  'Thorvaldsen',
  'Umarov',
  'Valdivia',
  'Wojcik',
  'Yamamoto',
  'Zubiri',
  'Achterberg',
  'Bellweather',
  'Chakraborty',
  'Dimitriou',
  'Engstrom',
  'Ferreira',
  'Gudmundsson',
  'Holloway',
  'Ilunga',
  'Jankowski',
];

interface Attribute {
  /** Wordings of the fact: `{n}` is the full name, `{v}` the value. Only those two carry capitals or digits. */
  wordings: readonly string[];
  value: (random: () => number) => string;
  categories: readonly string[];
}

const digits = (count: number) => (random: () => number) => String(10 ** (count - 1) + Math.floor(random() * 9 * 10 ** (count - 1)));

const ATTRIBUTES: readonly Attribute[] = [
  {
    wordings: [
      "{n}'s gym locker code is {v}.",
      'Locker code for {n}: {v}.',
      '{n} opens the gym locker with the code {v}.',
      'The gym locker combination {n} uses is {v}.',
    ],
    value: digits(4),
    categories: ['people/access', 'general'],
  },
  {
    wordings: [
      '{n} sits at desk {v}.',
      'Desk {v} is where {n} works.',
      "{n}'s desk number is {v}.",
      'To find {n} at the office, go to desk {v}.',
    ],
    value: digits(3),
    categories: ['project-context/office', 'people/contacts'],
  },
  {
    wordings: [
      "{n}'s building badge number is {v}.",
      'Badge {v} belongs to {n}.',
      '{n} badges in with card number {v}.',
      'Building badge for {n}: number {v}.',
    ],
    value: digits(6),
    categories: ['project-context/office', 'people/access'],
  },
  {
    wordings: [
      '{n} parks in spot {v} of the garage.',
      'Parking spot {v} is reserved for {n}.',
      "{n}'s reserved parking space is number {v}.",
      'The garage spot for {n} is {v}.',
    ],
    value: digits(3),
    categories: ['project-context/office', 'general'],
  },
  {
    wordings: [
      '{n} can be reached on phone extension {v}.',
      'Phone extension of {n}: {v}.',
      "{n}'s desk phone is extension {v}.",
      'To call {n} internally, dial {v}.',
    ],
    value: digits(4),
    categories: ['people/contacts'],
  },
  {
    wordings: [
      "{n}'s bike lock combination is {v}.",
      'Bike lock code for {n}: {v}.',
      '{n} locks the bike with the combination {v}.',
      "The combination on {n}'s bike lock is {v}.",
    ],
    value: digits(4),
    categories: ['people/access', 'general'],
  },
  {
    wordings: [
      "The door code at {n}'s building is {v}.",
      "{n}'s apartment door code: {v}.",
      "To get into {n}'s building, type {v} at the door.",
      '{n} said the building entry code is {v}.',
    ],
    value: digits(4),
    categories: ['people/access'],
  },
  {
    wordings: [
      "{n}'s employee number is {v}.",
      'Employee id of {n}: {v}.',
      '{n} is registered as employee {v} in the payroll system.',
      'Payroll lists {n} under employee number {v}.',
    ],
    value: digits(5),
    categories: ['people/contacts', 'project-context/payroll'],
  },
  {
    wordings: [
      '{n} always books table {v} at the ramen place.',
      "At the ramen place, {n}'s usual table is number {v}.",
      "{n}'s favourite table at the ramen place is {v}.",
      'Table {v} at the ramen place is the one {n} asks for.',
    ],
    value: digits(2),
    categories: ['user-preferences/food', 'people/habits'],
  },
  {
    wordings: [
      "{n}'s storage unit gate code is {v}.",
      'Storage unit gate for {n}: code {v}.',
      '{n} gets into the storage unit with gate code {v}.',
      'The gate code {n} uses at the storage unit is {v}.',
    ],
    value: digits(4),
    categories: ['people/access', 'general'],
  },
  {
    wordings: [
      "{n}'s library card number is {v}.",
      'Library card of {n}: {v}.',
      '{n} borrows books with library card {v}.',
      'The library card {n} uses has the number {v}.',
    ],
    value: digits(8),
    categories: ['people/contacts', 'general'],
  },
  {
    wordings: [
      "{n}'s frequent flyer number is {v}.",
      'Frequent flyer account of {n}: {v}.',
      '{n} collects air miles under frequent flyer number {v}.',
      'When booking flights for {n}, use frequent flyer number {v}.',
    ],
    value: digits(9),
    categories: ['travel/loyalty', 'people/contacts'],
  },
  {
    wordings: [
      '{n} is responsible for server rack {v}.',
      'Server rack {v} is looked after by {n}.',
      "{n}'s server rack is number {v}.",
      'Questions about server rack {v} go to {n}.',
    ],
    value: digits(2),
    categories: ['project-context/infra', 'people/contacts'],
  },
  {
    wordings: [
      "{n}'s printer pin is {v}.",
      'Printer pin for {n}: {v}.',
      '{n} releases print jobs with pin {v}.',
      'The shared printer pin that {n} uses is {v}.',
    ],
    value: digits(4),
    categories: ['project-context/office', 'people/access'],
  },
  {
    wordings: [
      "{n}'s mailbox number in the lobby is {v}.",
      'Mailbox {v} in the lobby belongs to {n}.',
      '{n} collects post from mailbox {v} in the lobby.',
      'The lobby mailbox for {n} is number {v}.',
    ],
    value: digits(3),
    categories: ['people/contacts', 'general'],
  },
  {
    wordings: [
      "{n}'s locker at the swimming pool is number {v}.",
      'Swimming pool locker for {n}: {v}.',
      '{n} always takes locker {v} at the swimming pool.',
      'At the swimming pool, {n} uses locker {v}.',
    ],
    value: digits(3),
    categories: ['people/habits', 'general'],
  },
];

interface MomentTemplate {
  /** `{n}` a full name, `{p}` a place, `{d}` the date (absent: every moment has the same text). */
  text: string;
  places: readonly string[];
  category: string;
}

const MOMENTS: readonly MomentTemplate[] = [
  {
    text: '{n} had a dentist appointment at {p} on {d}.',
    places: ['Clinic Rua Augusta', 'Smile Studio Mitte', 'the Harbour Dental Practice'],
    category: 'episodes/health',
  },
  { text: '{n} flew to {p} for the sales kickoff on {d}.', places: ['Lisbon', 'Toronto', 'Nairobi', 'Osaka'], category: 'episodes/travel' },
  { text: 'Job interview with {n} at {p} on {d}.', places: ['Globex', 'Initech', 'Umbrella Logistics'], category: 'episodes/career' },
  {
    text: "{n}'s car was serviced at {p} on {d}.",
    places: ['Kwik Fit Eastside', 'Autohaus Brenner', 'the Shell garage'],
    category: 'episodes/errands',
  },
  {
    text: '{n} went hiking in {p} with the kids.',
    places: ['the Dolomites', 'Snowdonia', 'the Black Forest'],
    category: 'episodes/family',
  },
  {
    text: 'Dinner with {n} at {p}; the user picked the wine.',
    places: ['Casa Ortega', 'Trattoria Lupo', 'the Blue Lantern'],
    category: 'episodes/social',
  },
  {
    text: "Power cut at {n}'s flat in {p}; the fridge had to be emptied.",
    places: ['Porto', 'Leeds', 'Gdansk'],
    category: 'episodes/home',
  },
  { text: '{n} gave the keynote at {p}.', places: ['DevConf', 'the Nordic Data Summit', 'PyCon Balkan'], category: 'episodes/work' },
];

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** A rough normalisation (lower case, letters and digits only), enough to keep background notes unique. */
const roughKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Fact {
  name: string;
  attribute: Attribute;
  value: string;
  /** Wording indexes in the order members use them. */
  wordings: number[];
  members: number;
}

interface LookAlike {
  name: string;
  template: MomentTemplate;
  place: string;
  days: string[];
}

/**
 * Builds the memory (`PlantedMemory.build`) and later churn batches (`churn`), keeping the
 * ground truth: which entry is a member of which planted fact or look-alike pair, and which
 * content belongs to which fact (what the oracle model reads). Deterministic for a seed.
 */
export class PlantedMemory {
  readonly entries: PlantedEntry[] = [];
  readonly origins = new Map<string, Origin>();
  private readonly factByContent = new Map<string, number>();
  private readonly facts: Fact[] = [];
  private readonly pairs: LookAlike[] = [];
  private readonly usedKeys = new Set<string>();
  private readonly usedFacts = new Set<string>();
  private readonly random: () => number;
  private nextId = 1;

  private constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  /**
   * `size` entries: about 2.5 % members of planted duplicate groups (two or three wordings),
   * 1 % single planted facts, 1 % look-alike pairs, the rest background. Created over the year
   * before `now`.
   */
  static build(size: number, seed: number, now: Date): PlantedMemory {
    const memory = new PlantedMemory(seed);
    const random = memory.random;
    const pending: Array<{ content: string; category: string; metadata: Record<string, string>; origin: Origin }> = [];
    let groupMembers = 0;
    while (groupMembers < Math.round(size * 0.025)) {
      const fact = memory.newFact(2 + Math.floor(random() * 2));
      for (let member = 0; member < memory.facts[fact]!.members; member++) pending.push(memory.factMember(fact, member));
      groupMembers += memory.facts[fact]!.members;
    }
    for (let single = 0; single < Math.round(size * 0.01); single++) pending.push(memory.factMember(memory.newFact(1), 0));
    for (let pair = 0; pair < Math.round(size * 0.005); pair++) {
      const id = memory.newPair(now);
      pending.push(memory.moment(id, 0), memory.moment(id, 1));
    }
    while (pending.length < size) pending.push(memory.background());

    for (const entry of shuffled(random, pending)) {
      const created = now.getTime() - Math.floor(random() * 365 * DAY_MS);
      memory.add(entry, new Date(created).toISOString());
    }
    return memory;
  }

  /**
   * Forgets the drafts made so far (`entries`), once they are loaded: what is left is what the
   * audit and the oracle need (origins, facts), so the process holds little besides the store.
   */
  forgetDrafts(): void {
    this.entries.length = 0;
  }

  /** Content → the planted fact it states (undefined for anything else). */
  factOf(content: string): number | undefined {
    return this.factByContent.get(content);
  }

  /** What is planted so far: duplicate groups (two or more members), single facts, look-alike pairs. */
  counts(): { groups: number; singles: number; pairs: number; identicalPairs: number } {
    return {
      groups: this.facts.filter((fact) => fact.members >= 2).length,
      singles: this.facts.filter((fact) => fact.members === 1).length,
      pairs: this.pairs.length,
      identicalPairs: this.pairs.filter((pair) => !pair.template.text.includes('{d}')).length,
    };
  }

  /**
   * `count` new entries noted within the last hours before `now`: 10 % new wordings of
   * existing groups, 10 % second wordings of single facts, 10 % new moments of look-alike
   * templates, the rest unrelated background.
   */
  churn(count: number, now: Date): { entries: PlantedEntry[]; mix: ChurnMix } {
    const random = this.random;
    const share = Math.round(count * 0.1);
    const groups = shuffled(
      random,
      this.facts.map((_, i) => i).filter((i) => this.facts[i]!.members >= 2 && this.facts[i]!.members < 4),
    );
    const singles = shuffled(
      random,
      this.facts.map((_, i) => i).filter((i) => this.facts[i]!.members === 1),
    );
    const pairs = shuffled(
      random,
      this.pairs.map((_, i) => i),
    );
    const pending: Array<{ content: string; category: string; metadata: Record<string, string>; origin: Origin }> = [];
    const mix: ChurnMix = { extended: 0, paired: 0, moments: 0, unrelated: 0 };
    for (const fact of groups.slice(0, share)) {
      pending.push(this.factMember(fact, this.facts[fact]!.members++));
      mix.extended++;
    }
    for (const fact of singles.slice(0, share)) {
      pending.push(this.factMember(fact, this.facts[fact]!.members++));
      mix.paired++;
    }
    for (const pair of pairs.slice(0, share)) {
      pending.push(this.moment(pair, this.newMomentDay(pair, now)));
      mix.moments++;
    }
    while (pending.length < count) {
      pending.push(this.background());
      mix.unrelated++;
    }
    const entries: PlantedEntry[] = [];
    for (const entry of shuffled(random, pending)) {
      const created = now.getTime() - Math.floor(random() * 6 * 3_600_000);
      entries.push(this.add(entry, new Date(created).toISOString()));
    }
    return { entries, mix };
  }

  private add(
    entry: { content: string; category: string; metadata: Record<string, string>; origin: Origin },
    createdAt: string,
  ): PlantedEntry {
    const id = (this.nextId++).toString(16).padStart(12, '0');
    const planted: PlantedEntry = {
      draft: {
        id,
        content: entry.content,
        category: entry.category,
        tags: [pick(this.random, ['work', 'personal', 'ops', 'finance', 'travel', 'family', 'health'])],
        metadata: entry.metadata,
        importance: Math.round(this.random() * 70) / 100,
        createdAt,
        lastSeenAt: createdAt,
        reinforcementCount: 1,
      },
      origin: entry.origin,
    };
    this.entries.push(planted);
    this.origins.set(id, entry.origin);
    return planted;
  }

  private newFact(members: number): number {
    for (;;) {
      const name = `${pick(this.random, FIRST_NAMES)} ${pick(this.random, LAST_NAMES)}`;
      const attribute = Math.floor(this.random() * ATTRIBUTES.length);
      const key = `${name}|${attribute}`;
      if (this.usedFacts.has(key)) continue;
      this.usedFacts.add(key);
      const chosen = ATTRIBUTES[attribute]!;
      const wordings = shuffled(
        this.random,
        chosen.wordings.map((_, i) => i),
      );
      this.facts.push({ name, attribute: chosen, value: chosen.value(this.random), wordings, members });
      return this.facts.length - 1;
    }
  }

  private factMember(index: number, member: number) {
    const fact = this.facts[index]!;
    const template = fact.attribute.wordings[fact.wordings[member]!]!;
    const content = template.replaceAll('{n}', fact.name).replaceAll('{v}', fact.value);
    this.factByContent.set(content, index);
    this.usedKeys.add(roughKey(content));
    return {
      content,
      category: pick(this.random, fact.attribute.categories),
      metadata: {},
      origin: { kind: 'fact' as const, fact: index },
    };
  }

  private newPair(now: Date): number {
    const template = pick(this.random, MOMENTS);
    const first = now.getTime() - (30 + Math.floor(this.random() * 700)) * DAY_MS;
    const second = first + (20 + Math.floor(this.random() * 300)) * DAY_MS;
    this.pairs.push({
      name: `${pick(this.random, FIRST_NAMES)} ${pick(this.random, LAST_NAMES)}`,
      template,
      place: pick(this.random, template.places),
      days: [isoDay(first), isoDay(Math.min(second, now.getTime() - DAY_MS))],
    });
    return this.pairs.length - 1;
  }

  private newMomentDay(pair: number, now: Date): number {
    const days = this.pairs[pair]!.days;
    let day = isoDay(now.getTime() - (1 + Math.floor(this.random() * 10)) * DAY_MS);
    while (days.includes(day)) day = isoDay(Date.parse(day) - DAY_MS);
    days.push(day);
    return days.length - 1;
  }

  private moment(pair: number, index: number) {
    const lookAlike = this.pairs[pair]!;
    const day = lookAlike.days[index]!;
    const content = lookAlike.template.text.replaceAll('{n}', lookAlike.name).replaceAll('{p}', lookAlike.place).replaceAll('{d}', day);
    return {
      content,
      category: lookAlike.template.category,
      metadata: { 'subject.point': day },
      origin: { kind: 'moment' as const, pair },
    };
  }

  private background() {
    for (;;) {
      const random = this.random;
      const sentences = random() < 0.35 ? 1 : random() < 0.75 ? 2 : 3;
      const parts: string[] = [];
      for (let s = 0; s < sentences; s++) {
        const detail = random() < 0.8 ? ` ${pick(random, DETAILS)}` : '';
        parts.push(`${pick(random, SUBJECTS)} ${pick(random, VERBS)} ${pick(random, TOPICS)}${detail}.`);
      }
      if (random() < 0.25) parts.push(`Ticket REV-${1000 + Math.floor(random() * 90_000)}.`);
      const content = `${pick(random, OPENERS)}${parts.join(' ')}`;
      const key = roughKey(content);
      if (this.usedKeys.has(key)) continue;
      this.usedKeys.add(key);
      return { content, category: pick(random, BACKGROUND_CATEGORIES), metadata: {}, origin: { kind: 'background' as const } };
    }
  }
}
