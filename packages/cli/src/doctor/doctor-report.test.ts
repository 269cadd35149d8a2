import { describe, expect, it } from 'vitest';
import { flattenOptions, renderDoctorReport } from './doctor-report';

describe('doctor report', () => {
  it('flattens nested options to dotted keys', () => {
    expect(
      flattenOptions({ interval: 60_000, archive: { retentionDays: 90 }, consolidation: { protectedCategories: ['user-preferences'] } }),
    ).toEqual(['interval = 60000', 'archive.retentionDays = 90', 'consolidation.protectedCategories = ["user-preferences"]']);
  });

  it('renders checks, quarantined files, the pass plan and the options', () => {
    const text = renderDoctorReport({
      version: '0.1.0',
      node: 'v20.0.0',
      dataPath: '/data',
      checks: [
        { name: 'data directory', status: 'ok', detail: 'readable and writable' },
        { name: 'model', status: 'warn', detail: 'REVERIE_MODEL is not set' },
      ],
      quarantined: ['memory/.quarantine/bad.json'],
      plan: [
        { name: 'importance-decay', phase: 'light-sleep', status: 'would-run', host: false },
        { name: 'episode-extraction', phase: 'rem', status: 'skipped', reason: 'needs a language model', host: false },
      ],
      options: { archive: { retentionDays: 90 } },
    });
    expect(text).toBe(
      [
        'reverie 0.1.0 (node v20.0.0) — data directory /data',
        '',
        '  ok    data directory  readable and writable',
        '  warn  model           REVERIE_MODEL is not set',
        '',
        'Set aside as unreadable (inspect, repair or delete them):',
        '  memory/.quarantine/bad.json',
        '',
        'Dream passes with this setup:',
        '  runs   importance-decay',
        '  skips  episode-extraction  needs a language model',
        '',
        'Dreaming options in force:',
        '  archive.retentionDays = 90',
      ].join('\n'),
    );
  });
});
