import { describe, expect, it } from 'vitest';
import { factTokens, missingFacts } from './fact-tokens';

describe('factTokens', () => {
  it('takes numbers, dates, times and versions whole', () => {
    expect(factTokens('the flight leaves 2026-06-14 at 10:30, gate 42, fare 1,250.50, app v2')).toEqual([
      '2026-06-14',
      '10:30',
      '42',
      '1,250.50',
      'v2',
    ]);
  });

  it('takes capitalised words that do not open a sentence', () => {
    expect(factTokens('The user met Alice in Berlin. She works at ACME on PostgreSQL.')).toEqual(['Alice', 'Berlin', 'ACME', 'PostgreSQL']);
  });

  it('skips sentence openers, the pronoun I, and retention hints', () => {
    expect(factTokens('User likes tea. Coffee is fine too! Really? I think so: Mostly [Durable]')).toEqual([]);
  });

  it('reduces possessives and keeps apostrophe names', () => {
    expect(factTokens("the user's manager is Alice's friend O'Brien")).toEqual(['Alice', "O'Brien"]);
  });
});

describe('missingFacts', () => {
  it('is empty when every fact survives, whatever the case or the order', () => {
    expect(missingFacts(['User lives in Berlin since 2024', 'user moved to Berlin'], 'Since 2024 the user lives in berlin.')).toEqual([]);
  });

  it('checks token boundaries: a fact inside a longer token is lost', () => {
    expect(missingFacts(['lives in Berlin, flat 35'], 'is a Berliner in flat 350')).toEqual(['Berlin', '35']);
  });

  it('lists each lost fact once, in order of appearance', () => {
    expect(missingFacts(['met Alice on 2026-01-02', 'and Alice again in Rome'], 'met a friend twice')).toEqual([
      'Alice',
      '2026-01-02',
      'Rome',
    ]);
  });
});
