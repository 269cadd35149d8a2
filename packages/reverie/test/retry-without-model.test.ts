import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FileDeadLetterStore } from '@reverie/file-store/internal';
import { createReverie } from 'reverie';

/** SPEC O7: retrying a model pass without a model keeps its dead letter and says why. */
let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-retry-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

it('keeps the dead letter of a model pass and answers MODEL_UNAVAILABLE when retried without a model', async () => {
  const reverie = createReverie({ dataPath }).withMemory().withConversationLog().withDreaming({ enabled: false }).build();
  const letter = {
    runId: 'aaaaaaaaaaaa',
    trigger: 'manual',
    failedAt: '2026-03-01T00:00:00.000Z',
    passes: [{ name: 'episode-extraction', error: 'the model timed out' }],
    runFolder: join(dataPath, '_system', 'dreams', 'runs', 'aaaaaaaaaaaa'),
  };
  await new FileDeadLetterStore(dataPath).write(letter);
  await expect(reverie.dreams.retry('aaaaaaaaaaaa')).rejects.toMatchObject({
    code: 'MODEL_UNAVAILABLE',
    message: expect.stringContaining('episode-extraction'),
  });
  expect(await new FileDeadLetterStore(dataPath).read('aaaaaaaaaaaa')).toMatchObject({ passes: [{ name: 'episode-extraction' }] });
  await reverie.close();
});
