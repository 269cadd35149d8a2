import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHost } from './host';

const dataPath = mkdtempSync(join(tmpdir(), 'reverie-tsyringe-host-'));
try {
  const result = await runHost(dataPath);
  console.log('Recalled for "peanut allergy":', result.recalled);
  console.log('reverie.container resolves reverie.memory:', result.sameMemory, '— and the store the app registered:', result.sameStore);
  console.log("The dream cycle ran the app's own pass:", result.scratchExpiry);
  console.log('Left in memory:', result.remaining);
  console.log("The app's audit trail:");
  for (const line of result.audit) console.log(`  ${line}`);
} finally {
  rmSync(dataPath, { recursive: true, force: true });
}
