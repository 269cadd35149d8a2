import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../schemas/memory-entry';
import { MAX_LINEAGE_ANCESTORS, MAX_LINEAGE_PASSAGES, memoryLineageSchema } from '../schemas/memory-lineage';
import { memoryHistory } from './memory-history';
import {
  absorbedLineage,
  contentExcerpt,
  contentFingerprint,
  lineageTurnRanges,
  mergedLineage,
  mergedPassages,
  supersedingLineage,
} from './memory-lineage';

const base = { category: 'general', tags: [], metadata: {}, importance: 0.5, reinforcementCount: 1 };
const entry = (id: string, content: string, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({
  ...base,
  id,
  content,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  lastSeenAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});
const hexId = (n: number) => n.toString(16).padStart(12, '0');

describe('contentExcerpt and contentFingerprint', () => {
  it('keeps short content whole and cuts long content at a word, within 80 characters', () => {
    expect(contentExcerpt('  Likes   tea\n')).toBe('Likes tea');
    const long = 'The user keeps a detailed journal of every climbing trip with grades, partners, weather and the gear they used';
    const excerpt = contentExcerpt(long);
    expect(excerpt.length).toBeLessThanOrEqual(80);
    expect(excerpt).toBe('The user keeps a detailed journal of every climbing trip with grades…');
  });

  it('fingerprints content as 8 hex characters that differ when the content does', () => {
    expect(contentFingerprint('Likes tea')).toMatch(/^[0-9a-f]{8}$/);
    expect(contentFingerprint('Likes tea')).toBe(contentFingerprint('Likes tea'));
    expect(contentFingerprint('Likes tea')).not.toBe(contentFingerprint('Likes tee'));
  });
});

describe('mergedLineage', () => {
  it('records the sources as parents with their origin, then their own ancestry', () => {
    const a = entry(hexId(1), 'Likes tea', { lineage: { origin: { kind: 'tool', at: '2025-01-01T00:00:00.000Z', tool: 'save_memory' } } });
    const b = entry(hexId(2), 'Likes green tea', {
      lineage: mergedLineage([entry(hexId(3), 'Drinks tea')], hexId(2), { at: '2025-02-01T00:00:00.000Z', runId: 'aaaaaaaaaaaa' }),
    });
    const lineage = mergedLineage([a, b], hexId(9), {
      at: '2025-03-01T00:00:00.000Z',
      runId: 'bbbbbbbbbbbb',
      pass: 'memory-consolidation',
    });
    expect(lineage.origin).toEqual({ kind: 'merge', at: '2025-03-01T00:00:00.000Z', runId: 'bbbbbbbbbbbb', pass: 'memory-consolidation' });
    expect(lineage.ancestors!.map((ancestor) => [ancestor.id, ancestor.relation, ancestor.into, ancestor.origin])).toEqual([
      [hexId(1), 'merged', hexId(9), 'tool'],
      [hexId(2), 'merged', hexId(9), 'merge'],
      [hexId(3), 'merged', hexId(2), undefined],
    ]);
    expect(lineage.ancestors![0]).toMatchObject({
      excerpt: 'Likes tea',
      fingerprint: contentFingerprint('Likes tea'),
      runId: 'bbbbbbbbbbbb',
    });
    expect(memoryLineageSchema.parse(lineage)).toEqual(lineage);
    // SPEC M3: the sources' whole text, a merged source giving its own passages.
    expect(lineage.passages).toEqual(['Likes tea', 'Drinks tea']);
  });

  it('keeps each source text once as a passage, at most MAX_LINEAGE_PASSAGES, and a superseding entry keeps its own', () => {
    const long = 'The user keeps a detailed journal of every climbing trip with grades, partners, weather and the gear they used';
    expect(mergedPassages([entry(hexId(1), long), entry(hexId(2), 'Likes tea'), entry(hexId(3), 'Likes tea')])).toEqual([
      long,
      'Likes tea',
    ]);
    const many = Array.from({ length: MAX_LINEAGE_PASSAGES + 5 }, (_, i) => entry(hexId(i + 1), `fact ${i}`));
    expect(mergedPassages(many)).toEqual(many.slice(0, MAX_LINEAGE_PASSAGES).map((source) => source.content));
    const merged = entry(hexId(90), 'Likes tea and coffee', {
      lineage: mergedLineage(many.slice(0, 2), hexId(90), { at: '2025-03-01T00:00:00.000Z' }),
    });
    expect(supersedingLineage(merged, entry(hexId(91), 'Likes coffee'), { at: '2025-04-01T00:00:00.000Z' }).passages).toEqual([
      'fact 0',
      'fact 1',
    ]);
  });

  it('stays within MAX_LINEAGE_ANCESTORS however deep merges of merges go, counting what it folds', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 30 }), (widths) => {
        let next = 1;
        let current = entry(hexId(next++), 'seed');
        let total = 0;
        for (const width of widths) {
          const others = Array.from({ length: width }, () => entry(hexId(next++), 'fact'));
          const id = hexId(next++);
          const lineage = mergedLineage([current, ...others], id, { at: '2025-03-01T00:00:00.000Z' });
          total += width + 1;
          current = entry(id, 'merged', { lineage });
          const ancestors = lineage.ancestors ?? [];
          expect(ancestors.length).toBeLessThanOrEqual(MAX_LINEAGE_ANCESTORS);
          expect(ancestors.length + (lineage.folded ?? 0)).toBe(total);
          expect(ancestors.filter((ancestor) => ancestor.into === id)).toHaveLength(width + 1);
          expect(memoryLineageSchema.safeParse(lineage).success).toBe(true);
        }
      }),
    );
  });
});

describe('supersedingLineage and memoryHistory', () => {
  it('shows the chain Lyon → Porto → Berlin oldest first, also once the older entries are gone', () => {
    const lyon = entry(hexId(1), 'Lives in Lyon', { lineage: { origin: { kind: 'api', at: '2024-01-05T00:00:00.000Z' } } });
    const porto = entry(hexId(2), 'Lives in Porto', {
      createdAt: '2025-09-02T00:00:00.000Z',
      lineage: { origin: { kind: 'tool', at: '2025-09-02T00:00:00.000Z', tool: 'save_memory', sessionId: 'chat-7' } },
    });
    const portoAfter = { ...porto, lineage: supersedingLineage(porto, lyon, { at: '2025-10-01T00:00:00.000Z', runId: 'aaaaaaaaaaaa' }) };
    const berlin = entry(hexId(3), 'Lives in Berlin', {
      createdAt: '2026-03-01T00:00:00.000Z',
      lineage: {
        origin: {
          kind: 'session',
          at: '2026-03-01T00:00:00.000Z',
          runId: 'cccccccccccc',
          pass: 'episode-extraction',
          turns: [{ sessionId: 'chat-9', fromSeq: 4, toSeq: 9 }],
        },
      },
    });
    const berlinAfter = {
      ...berlin,
      lineage: supersedingLineage(berlin, portoAfter, { at: '2026-03-02T00:00:00.000Z', runId: 'bbbbbbbbbbbb' }),
    };
    expect(berlinAfter.lineage.origin).toEqual(berlin.lineage!.origin);

    const history = memoryHistory(berlinAfter, (id) => id === hexId(2));
    expect(history.steps.map((step) => [step.kind, step.id, step.into, step.runId, step.stored])).toEqual([
      ['superseded', hexId(1), hexId(2), 'aaaaaaaaaaaa', false],
      ['written', hexId(3), undefined, 'cccccccccccc', true],
      ['superseded', hexId(2), hexId(3), 'bbbbbbbbbbbb', true],
    ]);
    expect(history.steps[0]).toMatchObject({ excerpt: 'Lives in Lyon', origin: 'api', at: '2025-10-01T00:00:00.000Z' });
    expect(history.steps[1]).toMatchObject({
      origin: 'session',
      details: { pass: 'episode-extraction', turns: [{ sessionId: 'chat-9', fromSeq: 4, toSeq: 9 }] },
    });
    expect(history.folded).toBe(0);
    // The older entry's own history ends where its successor took over.
    const lyonAfter = { ...lyon, validTo: '2025-09-01T00:00:00.000Z', supersededBy: porto.id };
    expect(memoryHistory(lyonAfter, () => true).steps.map((step) => [step.kind, step.id, step.into, step.at])).toEqual([
      ['written', hexId(1), undefined, '2024-01-05T00:00:00.000Z'],
      ['superseded', hexId(1), hexId(2), '2025-09-01T00:00:00.000Z'],
    ]);
  });

  it('gives an entry without lineage one written step of unknown origin at its createdAt', () => {
    const plain = entry(hexId(4), 'Has a dog');
    expect(memoryHistory(plain, () => true)).toEqual({
      id: hexId(4),
      steps: [{ kind: 'written', id: hexId(4), at: plain.createdAt, excerpt: 'Has a dog', stored: true }],
      folded: 0,
    });
  });
});

describe('lineageTurnRanges', () => {
  it('gives one range of seqs per session, in order of first appearance, at most 16 sessions', () => {
    expect(
      lineageTurnRanges([
        { sessionId: 'b', seq: 7 },
        { sessionId: 'a', seq: 3 },
        { sessionId: 'b', seq: 4 },
        { sessionId: 'b', seq: 9 },
      ]),
    ).toEqual([
      { sessionId: 'b', fromSeq: 4, toSeq: 9 },
      { sessionId: 'a', fromSeq: 3, toSeq: 3 },
    ]);
    expect(lineageTurnRanges(Array.from({ length: 20 }, (_, i) => ({ sessionId: `s${i}`, seq: i + 1 })))).toHaveLength(16);
  });
});

describe('absorbedLineage', () => {
  const step = { at: '2025-03-01T00:00:00.000Z', runId: 'bbbbbbbbbbbb', pass: 'memory-consolidation' };

  it('keeps the survivor origin and ancestry, adds each deleted duplicate as a merged parent and keeps all their text as passages', () => {
    const origin = { kind: 'tool' as const, at: '2025-01-01T00:00:00.000Z', tool: 'save_memory' };
    const older = entry(hexId(9), 'Drinks tea');
    const survivor = entry(hexId(1), 'Maria went to a chili cook-off with her church friends', {
      lineage: { origin, ...supersedingLineage(entry(hexId(1), 'x'), older, step) },
    });
    const duplicate = entry(hexId(2), 'Maria shared a poster for a chili cook-off', {
      lineage: { origin: { kind: 'import', at: '2025-01-01T00:00:00.000Z' } },
    });
    const lineage = absorbedLineage(survivor, [duplicate], step);
    expect(memoryLineageSchema.safeParse(lineage).success).toBe(true);
    expect(lineage.origin).toEqual(origin);
    expect(lineage.ancestors?.map((ancestor) => [ancestor.id, ancestor.relation, ancestor.into])).toEqual([
      [hexId(2), 'merged', hexId(1)],
      [hexId(9), 'superseded', hexId(1)],
    ]);
    expect(lineage.ancestors?.[0]).toMatchObject({ excerpt: duplicate.content, origin: 'import', runId: step.runId });
    expect(lineage.passages).toEqual([survivor.content, duplicate.content]);
  });

  it('adds to the passages a merged survivor already has, and leaves a survivor without absorbed entries as it was', () => {
    const merged = entry(hexId(3), 'Likes tea, green or black', {
      lineage: mergedLineage([entry(hexId(4), 'Likes green tea'), entry(hexId(5), 'Likes black tea')], hexId(3), step),
    });
    const lineage = absorbedLineage(merged, [entry(hexId(6), 'Likes tea')], step);
    expect(lineage.passages).toEqual(['Likes green tea', 'Likes black tea', 'Likes tea']);
    expect(lineage.ancestors?.map((ancestor) => ancestor.id)).toEqual([hexId(6), hexId(4), hexId(5)]);
    expect(absorbedLineage(merged, [], step)).toBe(merged.lineage);
  });
});
