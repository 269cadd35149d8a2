import { ReverieValidationError } from '../errors/reverie-error';
import { isSystemCategory, SYSTEM_CATEGORY } from './path-name';

/**
 * SPEC O7: refuses a category under `_system/` (INVALID_CATEGORY), where Reverie keeps its own
 * records and which is never recalled. For the public writes — `reverie.memory.save`, the agent's
 * tools, the server, the CLI —, never for the dream engine's own. Anything but a string passes:
 * the category's schema judges it.
 */
export function refuseSystemCategory(category: unknown): void {
  if (typeof category !== 'string' || !isSystemCategory(category)) return;
  throw new ReverieValidationError(
    'INVALID_CATEGORY',
    `The category ${JSON.stringify(category)} is reserved for Reverie: ${SYSTEM_CATEGORY}/ holds its own records (dream runs, plans, the ledger) and is never recalled. File the entry under another category, such as "general" or "user-preferences/<topic>".`,
    { details: { category } },
  );
}
