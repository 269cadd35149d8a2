import { describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, ManualClock } from '@reverie/core';
import {
  FORGOTTEN_CATEGORY,
  ForgottenFacts,
  forgottenRecord,
  forgottenRecordDraft,
  keyedTermHash,
  statesForgottenFact,
} from './forgotten-facts';

describe('forgottenRecord', () => {
  it('keeps no word of what it records, in any letter case', () => {
    const record = forgottenRecord(['Alice got DIVORCED in Porto', 'constructor __proto__']);
    const stored = JSON.stringify(record).toLowerCase();
    for (const word of ['alice', 'divorc', 'porto', 'constructor', 'proto']) expect(stored).not.toContain(word);
    expect(record.facts).toHaveLength(2);
  });

  it('recognises a restatement with every term of a fact, in another form or case, and nothing less', () => {
    const record = forgottenRecord(['Alice got divorced']);
    expect(statesForgottenFact(record, 'Last year ALICE was divorcing; she got over it')).toBe(true);
    expect(statesForgottenFact(record, 'Alice got a new job')).toBe(false);
  });

  it('hashes under its salt: the same words under two salts give different hashes', () => {
    expect(keyedTermHash('00'.repeat(16), 'alic')).not.toBe(keyedTermHash('11'.repeat(16), 'alic'));
    expect(forgottenRecord(['Alice']).salt).not.toBe(forgottenRecord(['Alice']).salt);
  });
});

describe('ForgottenFacts', () => {
  it('reads the records of a store and skips an entry that does not parse', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    const memory = new InMemoryLongTermMemory({ clock });
    const facts = new ForgottenFacts(memory);
    expect((await facts.matcher())('anything')).toBe(false);
    await memory.save(forgottenRecordDraft(forgottenRecord(['peanut allergy']), clock.now()));
    await memory.save({ content: 'not json', category: FORGOTTEN_CATEGORY });
    expect(await facts.records()).toHaveLength(1);
    const states = await facts.matcher();
    expect(states('The user has a PEANUT allergy.')).toBe(true);
    expect(states('The user is vegetarian.')).toBe(false);
  });
});
