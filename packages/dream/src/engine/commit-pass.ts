import type { DreamPass, DreamServices } from './dream-types';
import { asJsonRoundTrip } from './json-plain';

/**
 * Hands a pass its plan's `commit` data once the plan's operations are applied, as JSON gives it
 * back (`asJsonRoundTrip`), so a direct run commits exactly what a saved plan would.
 */
export async function commitPass(pass: DreamPass, services: DreamServices, data: unknown): Promise<void> {
  if (data === undefined || !pass.commit) return;
  await pass.commit(services, asJsonRoundTrip(data));
}
