/**
 * SPEC B11, D3: one rule book for the prompts that ask a model to reword memory and for the fact
 * check that judges the rewrites (`judgeFactPreservation`). Each rule is stated once, here, with
 * what it allows and what it forbids; a directive renders the rules from this table
 * (`renderFactRules`), and the tests hold every example to the check both ways: each allowed
 * rewrite passes it, each forbidden one is refused. Pure data.
 */
export interface FactRewrite {
  /** What an entry says (a phrase or a whole entry). */
  from: string;
  /** The rewrite. */
  to: string;
  /** The day the entry was first noted, when the rewrite anchors a relative time to it. */
  noted?: string;
}

export interface FactRule {
  id: string;
  /** The rule in the words a directive uses, before its examples. */
  says: string;
  /** Rewrites the rule allows (the fact check accepts each). The directive shows those marked `shown`. */
  allows: ReadonlyArray<FactRewrite & { shown?: boolean }>;
  /** Rewrites the rule forbids (the fact check refuses each). The directive shows those marked `shown`. */
  forbids: ReadonlyArray<FactRewrite & { shown?: boolean }>;
}

export const FACT_RULES: readonly FactRule[] = [
  {
    id: 'keep-facts',
    says: 'A folded or reworded entry keeps every name, number, date and negation of the entries it replaces, and adds none of its own:',
    allows: [
      { from: 'Alice moved to Berlin in March 2024.', to: 'In March 2024, Alice moved to Berlin.' },
      { from: 'The user does not eat meat.', to: "The user doesn't eat meat." },
      // "and" joining two clauses, not a list: "expresses" is not the partner of "supportive".
      {
        from: 'Mel is supportive and expresses pride in Ana for helping others.',
        to: 'Mel supports Ana and is proud of her for helping others.',
      },
    ],
    forbids: [
      { from: 'Alice moved to Berlin in March 2024.', to: 'Alice moved to Berlin.', shown: true },
      { from: 'Alice moved to Berlin in March 2024.', to: 'Alice moved to Munich in March 2024.' },
      { from: 'The user has two dogs.', to: 'The user has three dogs.' },
      { from: 'The user does not eat meat.', to: 'The user eats meat.', shown: true },
    ],
  },
  {
    id: 'relative-times',
    says: 'A relative time ("yesterday", "last week", "last Friday", "five years ago") may stay as written, or be anchored to the day the entry was first noted (its first= day) and written out against it:',
    allows: [
      { from: 'last week', to: 'the week before 2023-07-16', noted: '2023-07-16', shown: true },
      { from: 'last Friday', to: 'the Friday before 2023-07-16', noted: '2023-07-16', shown: true },
      { from: 'five years ago', to: 'about five years before 2023-05-21', noted: '2023-05-21', shown: true },
      { from: 'yesterday', to: 'the day before 2023-07-16', noted: '2023-07-16' },
      // A real model's rewrite (LoCoMo conversation 3), refused until seasons could be anchored.
      {
        from: 'Joanna took a sunset picture on a hike near Fort Wayne last summer.',
        to: 'Joanna took a sunset picture on a hike near Fort Wayne in the summer before 2022-11-09.',
        noted: '2022-11-09',
      },
      { from: 'Tim is moving to Oslo next spring.', to: 'Tim is moving to Oslo in the spring after 2024-01-10.', noted: '2024-01-10' },
      {
        from: 'Ana is preparing for a meeting next week.',
        to: 'As of 2023-01-09, Ana was preparing for a meeting the following week.',
        noted: '2023-01-09',
      },
      {
        from: 'The team ran a charity race last weekend.',
        to: 'The team ran a charity race the weekend before 2023-07-20.',
        noted: '2023-07-20',
      },
      {
        from: 'Ana runs a bakery and recently hired two bakers.',
        to: 'Ana runs a bakery and, shortly before 2023-02-08, hired two bakers.',
        noted: '2023-02-08',
      },
      {
        from: 'Tim had a chat with a fan in California last week.',
        to: 'In the week before 2023-07-16, Tim had a chat with a fan in California.',
        noted: '2023-07-16',
      },
      { from: 'John started surfing five years ago.', to: 'John started surfing about five years before 2023-05-21.', noted: '2023-05-21' },
      {
        from: 'The release went out last Friday.',
        to: 'The release went out last Friday (the Friday before 2023-12-11).',
        noted: '2023-12-11',
      },
    ],
    forbids: [
      { from: 'last week', to: 'the week before 2023-08-01', noted: '2023-07-16', shown: true },
      { from: 'Joanna went hiking last summer.', to: 'Joanna went hiking in the winter before 2022-11-09.', noted: '2022-11-09' },
      { from: 'Joanna went hiking last summer.', to: 'Joanna went hiking in the summer before 2023-11-09.', noted: '2022-11-09' },
      { from: 'John started surfing five years ago.', to: 'John started surfing about ten years before 2023-05-21.', noted: '2023-05-21' },
      { from: 'Tim had a chat with a fan in California last week.', to: 'Tim had a chat with a fan in California.', noted: '2023-07-16' },
    ],
  },
  {
    id: 'abbreviations',
    says: 'A well-known abbreviation may be written out, and a name shortened to its well-known abbreviation:',
    allows: [
      { from: 'CA', to: 'California', shown: true },
      { from: 'NYC', to: 'New York City', shown: true },
      { from: 'Dr Lee', to: 'Doctor Lee', shown: true },
      { from: 'Tim met a Harry Potter fan in CA.', to: 'Tim met a Harry Potter fan in California.' },
      { from: 'The user lives in New York City.', to: 'The user lives in NYC.' },
    ],
    forbids: [
      { from: 'CA', to: 'Texas', shown: true },
      { from: 'Tim met a Harry Potter fan in CA.', to: 'Tim met a Harry Potter fan in Oregon.' },
    ],
  },
  {
    id: 'numbers',
    says: 'A number may be written in words or in digits, but never changed:',
    allows: [
      { from: 'one', to: '1', shown: true },
      { from: 'twice', to: 'two times', shown: true },
      { from: 'The user has one dog.', to: 'The user has 1 dog.' },
      { from: 'The flight was delayed twice.', to: 'The flight was delayed two times.' },
    ],
    forbids: [
      { from: 'one', to: '2', shown: true },
      { from: 'The user has one dog.', to: 'The user has 2 dogs.' },
    ],
  },
  {
    id: 'plans',
    says: 'A plan, wish or possibility stays one, in any wording:',
    allows: [
      { from: 'plans to play console games', to: 'intends to play console games', shown: true },
      { from: 'John plans to play console games with friends.', to: 'John is planning to play console games with friends.' },
      { from: 'Tim might visit Berlin next year.', to: 'Tim may visit Berlin next year.' },
      { from: 'Tom is considering moving to Oslo.', to: 'Tom considers moving to Oslo.' },
      // "Considering it an escape" is an opinion held, not a plan (a real model's merge, LoCoMo conversation 3).
      {
        from: 'Joanna finds solace and creativity in writing, considering it an escape and a way to express her feelings.',
        to: 'Joanna finds solace and creativity in writing; she considers writing an escape and a way to express her feelings.',
      },
      { from: 'Tom considers it his duty to help.', to: 'Tom sees helping as his duty.' },
      {
        from: 'Jon considers having confidence in oneself important for business success.',
        to: 'Jon considers self-confidence important for business success.',
      },
    ],
    forbids: [
      { from: 'plans to play console games', to: 'plays console games', shown: true },
      { from: 'Tim might visit Berlin next year.', to: 'Tim visits Berlin next year.' },
      { from: 'Tim is going to learn German.', to: 'Tim learns German.' },
      { from: 'Tom is considering moving to Oslo.', to: 'Tom moves to Oslo.' },
      { from: 'Tom considers moving to Oslo.', to: 'Tom moves to Oslo.' },
    ],
  },
];

/**
 * The rules as a directive states them: one line each, the examples marked `shown` in a form
 * tests read back (`"<from>" becomes "<to>"`, `"<from>" never becomes "<to>"`, with the day an
 * entry was first noted where an anchor needs it). Pure.
 */
export function renderFactRules(rules: readonly FactRule[] = FACT_RULES): string {
  const example = (rewrite: FactRewrite, verb: string) =>
    `"${rewrite.from}"${rewrite.noted ? ` in an entry first noted ${rewrite.noted}` : ''} ${verb} "${rewrite.to}"`;
  return rules
    .map((rule) => {
      const shown = [
        ...rule.allows.filter((r) => r.shown).map((r) => example(r, 'becomes')),
        ...rule.forbids.filter((r) => r.shown).map((r) => example(r, 'never becomes')),
      ];
      return `- ${rule.says}${shown.length > 0 ? ` ${shown.join('; ')}` : ''}`;
    })
    .join('\n');
}

/** The examples a rendered directive gives, read back from its text (see `renderFactRules`). Pure. */
export function directiveExamples(directive: string): Array<FactRewrite & { allowed: boolean }> {
  const pattern = /"([^"]+)"(?: in an entry first noted (\d{4}-\d{2}-\d{2}))? (never becomes|becomes) "([^"]+)"/g;
  return [...directive.matchAll(pattern)].map((match) => ({
    from: match[1]!,
    to: match[4]!,
    ...(match[2] ? { noted: match[2] } : {}),
    allowed: match[3] === 'becomes',
  }));
}
