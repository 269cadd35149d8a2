import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceIds, loadLocomo, sessionDate } from './locomo-data';

describe('evidenceIds', () => {
  it('splits several ids in one field and mends a misplaced colon, dropping what names no turn', () => {
    expect(evidenceIds(['D8:6; D9:17', 'D1:3', 'D:11:26', 'D', 'D1:3'])).toEqual(['D8:6', 'D9:17', 'D1:3', 'D11:26']);
  });
});

describe('sessionDate', () => {
  it('reads a session’s date and time as written, as UTC', () => {
    expect(sessionDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(sessionDate('12:09 am on 13 September, 2023')).toBe('2023-09-13T00:09:00.000Z');
    expect(sessionDate('sometime in May')).toBeUndefined();
  });
});

describe('loadLocomo', () => {
  it('makes observations of every session and speaker, and keeps the questions of categories 1–4 that name evidence', () => {
    const folder = mkdtempSync(join(tmpdir(), 'locomo-data-'));
    try {
      const file = join(folder, 'conversations.json');
      // A made-up conversation in LoCoMo's layout (none of its text).
      writeFileSync(
        file,
        JSON.stringify([
          {
            sample_id: 'x-1',
            conversation: {
              speaker_a: 'Ada',
              speaker_b: 'Bo',
              session_1_date_time: '9:00 am on 2 March, 2024',
              session_1: [{ speaker: 'Ada', dia_id: 'D1:1', text: 'I bought a kayak.' }],
              session_2_date_time: '10:30 pm on 9 March, 2024',
              session_2: [{ speaker: 'Bo', dia_id: 'D2:1', text: 'We went sailing.' }],
            },
            observation: {
              session_1_observation: { Ada: [['Ada bought a kayak.', 'D1:1']] },
              session_2_observation: { Bo: [['Bo went sailing with Ada.', ['D2:1', 'D1:1']]] },
            },
            qa: [
              { question: 'What did Ada buy?', answer: 'a kayak', evidence: ['D1:1'], category: 4 },
              { question: 'What did Ada never buy?', adversarial_answer: 'a yacht', evidence: ['D1:1'], category: 5 },
              { question: 'When?', answer: 2024, evidence: [], category: 2 },
            ],
          },
        ]),
      );
      const [conversation] = loadLocomo(file);
      expect(conversation!.speakers).toEqual(['Ada', 'Bo']);
      expect(conversation!.observations).toEqual([
        { content: 'Ada bought a kayak.', speaker: 'Ada', at: '2024-03-02T09:00:00.000Z', session: 1, evidence: ['D1:1'] },
        { content: 'Bo went sailing with Ada.', speaker: 'Bo', at: '2024-03-09T22:30:00.000Z', session: 2, evidence: ['D2:1', 'D1:1'] },
      ]);
      expect(conversation!.questions).toEqual([
        { id: '0:0', text: 'What did Ada buy?', answer: 'a kayak', category: 4, evidence: ['D1:1'] },
      ]);
      expect(conversation!.turns.get('D2:1')).toEqual({ speaker: 'Bo', text: 'We went sailing.' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
