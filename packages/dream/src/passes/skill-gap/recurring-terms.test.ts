import { describe, expect, it } from 'vitest';
import type { LoggedTurn } from '@reverie/core';
import { openingRequests, recurringTerms } from './recurring-terms';

let seq = 0;
function turn(sessionId: string, content: string, role: LoggedTurn['role'] = 'user'): LoggedTurn {
  seq += 1;
  return { seq, sessionId, role, content, timestamp: '2026-06-01T09:00:00.000Z' };
}

describe('openingRequests', () => {
  it('takes the first user turn of each session, in the order sessions start', () => {
    const turns = [
      turn('s2', 'system prompt', 'system'),
      turn('s2', 'Draft the invoice for ACME'),
      turn('s1', 'Hello there', 'assistant'),
      turn('s1', 'Rotate the staging keys'),
      turn('s2', 'and send it'),
      turn('s3', 'only an answer', 'assistant'),
    ];
    expect(openingRequests(turns)).toEqual([
      { sessionId: 's2', text: 'Draft the invoice for ACME' },
      { sessionId: 's1', text: 'Rotate the staging keys' },
    ]);
  });
});

describe('recurringTerms (SPEC D8)', () => {
  it('counts each term once per session and keeps terms found in at least minSessions sessions, most widespread first', () => {
    const terms = recurringTerms(
      [
        { sessionId: 'a', text: 'Please draft the invoice, the INVOICE for March' },
        { sessionId: 'b', text: 'Can you draft an invoice for Globex?' },
        { sessionId: 'c', text: 'Invoice reminder for Initech' },
        { sessionId: 'd', text: 'What is the weather in Oslo?' },
      ],
      { minSessions: 2 },
    );
    expect(terms).toEqual([
      { term: 'invoice', count: 3, sessionIds: ['a', 'b', 'c'] },
      { term: 'draft', count: 2, sessionIds: ['a', 'b'] },
    ]);
  });

  it('drops stop words, very short terms and retention hints, and honours a higher minSessions', () => {
    const requests = [
      { sessionId: 'a', text: '[correction] Is the DB up? deploy it' },
      { sessionId: 'b', text: 'is the db up [correction] deploy now' },
      { sessionId: 'c', text: 'deploy to prod [durable]' },
    ];
    expect(recurringTerms(requests, { minSessions: 2 }).map((term) => term.term)).toEqual(['deploy']);
    expect(recurringTerms(requests, { minSessions: 2, minLength: 2 }).map((term) => term.term)).toEqual(['deploy', 'db']);
    expect(recurringTerms(requests, { minSessions: 4 })).toEqual([]);
  });

  it('finds nothing when every session asks something different, or a term repeats within one session only', () => {
    expect(
      recurringTerms(
        [
          { sessionId: 'a', text: 'translate translate translate this letter' },
          { sessionId: 'b', text: 'book a table for two' },
        ],
        { minSessions: 2 },
      ),
    ).toEqual([]);
    expect(
      recurringTerms(
        [
          { sessionId: 'a', text: 'deploy' },
          { sessionId: 'a', text: 'deploy' },
        ],
        { minSessions: 2 },
      ),
    ).toEqual([]);
  });
});
