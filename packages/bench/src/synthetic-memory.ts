import { memoryDocumentText, type MemoryEntry } from '@reverie/core';

// Deterministic, realistic-looking memory entries: 25–45 words from a vocabulary of people,
// places, tools and events, so BM25 sees real term statistics (common and rare words).

const SUBJECTS = ['The user', 'Ana', 'The team', 'Marco', 'The client', 'Priya', 'The on-call engineer', 'Our CFO', 'The designer', 'Sam'];
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
];
const CATEGORIES = [
  'user-preferences/formatting',
  'user-preferences/schedule',
  'project-context/infra',
  'project-context/billing',
  'project-context/release',
  'episodes/meetings',
  'anti-patterns/deploy',
  'general',
];

function rng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

export function syntheticContent(i: number): string {
  const random = rng(i + 1);
  const sentences = 2 + Math.floor(random() * 2);
  const parts: string[] = [];
  for (let s = 0; s < sentences; s++) {
    parts.push(`${pick(random, SUBJECTS)} ${pick(random, VERBS)} ${pick(random, TOPICS)} ${pick(random, DETAILS)}.`);
  }
  parts.push(`Ticket REV-${1000 + (i % 9000)}.`);
  return parts.join(' ');
}

export function syntheticEntry(i: number, now: Date): MemoryEntry {
  const random = rng(i * 7 + 3);
  const created = new Date(now.getTime() - Math.floor(random() * 365) * 86_400_000).toISOString();
  return {
    id: i.toString(16).padStart(12, '0'),
    content: syntheticContent(i),
    category: pick(random, CATEGORIES),
    tags: [pick(random, ['work', 'personal', 'ops', 'finance', 'travel'])],
    createdAt: created,
    updatedAt: created,
    lastSeenAt: created,
    reinforcementCount: 1,
    importance: Math.round(random() * 100) / 100,
    metadata: {},
  };
}

export function syntheticQuery(i: number): string {
  const random = rng(1_000_003 + i);
  const words = memoryDocumentText({ content: `${pick(random, TOPICS)} ${pick(random, DETAILS)}`, tags: [], category: 'general' })
    .split(' ')
    .filter((word) => word.length > 3);
  return `${pick(random, ['what about', 'remind me of', 'anything on', 'notes for'])} ${pick(random, words)} ${pick(random, words)}`;
}
