import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintChanges, SeenFingerprints } from './seen-fingerprints';

const id = fc.integer({ min: 0, max: 40 }).map((n) => n.toString(16).padStart(12, '0'));
const fingerprint = fc.constantFrom('AAAAAAAAAAAA', 'b-b-b-b-b-b-', 'Zz_9Zz_9Zz_9');
const change = fc.tuple(id, fc.option(fingerprint, { nil: null }));

describe('SeenFingerprints', () => {
  it('answers as a map would, through any mix of logged changes and compactions', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(change, { maxLength: 12 }), fc.boolean())), (runs) => {
        const model = new Map<string, string>();
        let sorted: Buffer = Buffer.alloc(0);
        let log: Buffer = Buffer.alloc(0);
        for (const [changes, compact] of runs) {
          const seen = SeenFingerprints.fromFiles(sorted, log);
          if (compact) {
            sorted = seen.compacted(changes);
            log = Buffer.alloc(0);
          } else {
            log = Buffer.concat([log, SeenFingerprints.logRecords(changes)]);
          }
          for (const [key, value] of changes) {
            if (value === null) model.delete(key);
            else model.set(key, value);
          }
        }
        const seen = SeenFingerprints.fromFiles(sorted, log);
        for (let n = 0; n <= 40; n++) {
          const key = n.toString(16).padStart(12, '0');
          expect(seen.get(key)).toBe(model.get(key));
        }
      }),
    );
  });

  it('keeps only the live ids when compacting after a listing', () => {
    const seen = SeenFingerprints.fromRecord({ '000000000001': 'AAAAAAAAAAAA', '000000000002': 'AAAAAAAAAAAA' });
    const after = SeenFingerprints.fromFiles(
      seen.compacted([['000000000003', 'AAAAAAAAAAAA']], new Set(['000000000002', '000000000003'])),
      Buffer.alloc(0),
    );
    expect([after.get('000000000001'), after.get('000000000002'), after.get('000000000003')]).toEqual([
      undefined,
      'AAAAAAAAAAAA',
      'AAAAAAAAAAAA',
    ]);
  });

  it('reads a sorted file that is not whole records as empty, and a log up to its first torn record', () => {
    const log = SeenFingerprints.logRecords([
      ['000000000001', 'AAAAAAAAAAAA'],
      ['000000000002', 'AAAAAAAAAAAA'],
    ]);
    const torn = SeenFingerprints.fromFiles(Buffer.from('000000000009AAAAAAAAAAAA'), log.subarray(0, 40));
    expect([torn.get('000000000009'), torn.get('000000000001'), torn.get('000000000002')]).toEqual([undefined, 'AAAAAAAAAAAA', undefined]);
  });

  it('records only what changes: a fingerprint already held and the removal of an unknown id add nothing', () => {
    const seen = SeenFingerprints.fromRecord({ '000000000001': 'AAAAAAAAAAAA', '000000000002': 'AAAAAAAAAAAA' });
    const changes = fingerprintChanges(seen, {
      fingerprints: { '000000000001': 'AAAAAAAAAAAA', '000000000003': 'b-b-b-b-b-b-' },
      gone: ['000000000002', '000000000004', '000000000003', '000000000002'],
    });
    expect(changes).toEqual([
      ['000000000002', null],
      ['000000000003', 'b-b-b-b-b-b-'],
    ]);
  });
});
