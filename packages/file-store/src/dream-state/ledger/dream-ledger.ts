import type { ILogger } from '@reverie/core';
import { type LedgerLine, ledgerLineSchema } from '@reverie/dream-state';
import { ledgerPath } from '../dream-state-paths';
import { JsonlLog } from '../jsonl-log';

/**
 * The telemetry ledger at `<dataPath>/_system/dreams/ledger.jsonl` (SPEC O5): the engine appends
 * one line at the end of every pass of every real run; `status` reads it back.
 */
export class DreamLedger extends JsonlLog<LedgerLine> {
  constructor(dataPath: string, options: { logger?: ILogger | undefined } = {}) {
    super(ledgerPath(dataPath), ledgerLineSchema, { what: 'dream ledger line', logger: options.logger });
  }
}
