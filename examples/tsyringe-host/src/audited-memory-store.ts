import { type IClock, InMemoryLongTermMemory, type MemoryDraft, type MemoryEntry, type WriteCondition } from '@reverie/core';
import { TOKENS } from 'reverie/tokens';
import { inject, injectable } from 'tsyringe';
import { AuditTrail } from './audit-trail';

/**
 * The host's long-term memory store: an `@injectable()` class with dependencies of its own — the
 * application's audit trail, and the clock Reverie registers (or the one the host gave). Every
 * parameter carries `@inject(token)`, so no decorator metadata is needed (esbuild and tsup emit
 * none). It keeps entries in process memory; a real one would talk to the app's database.
 */
@injectable()
export class AuditedMemoryStore extends InMemoryLongTermMemory {
  constructor(
    @inject(AuditTrail) private readonly audit: AuditTrail,
    @inject(TOKENS.Clock) clock: IClock,
    @inject(TOKENS.Scope) private readonly scope: string,
  ) {
    super({ clock });
  }

  override async save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry> {
    const entry = await super.save(draft, condition);
    this.audit.record(`${this.scope}: saved ${entry.id} (${entry.category})`);
    return entry;
  }

  override async delete(id: string, condition?: WriteCondition): Promise<boolean> {
    const deleted = await super.delete(id, condition);
    if (deleted) this.audit.record(`${this.scope}: deleted ${id}`);
    return deleted;
  }
}
