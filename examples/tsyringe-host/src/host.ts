import 'reflect-metadata';
import { type IClock, ManualClock } from '@reverie/core';
import { createReverie, TOKENS } from 'reverie';
import { container, Lifecycle } from 'tsyringe';
import { AuditTrail } from './audit-trail';
import { AuditedMemoryStore } from './audited-memory-store';
import { scratchExpiryPass } from './scratch-expiry-pass';

/**
 * The host application's bootstrap: its services in its tsyringe container, Reverie built in a
 * child of it. Returns what a caller (main.ts, the test) looks at.
 */
export async function runHost(dataPath: string) {
  const app = container.createChildContainer();
  // One store per container (each scope of buildScopes() gets its own child container).
  app.register(TOKENS.LongTermMemory, { useClass: AuditedMemoryStore }, { lifecycle: Lifecycle.ContainerScoped });
  app.register(TOKENS.DreamPass, { useValue: scratchExpiryPass(7) });
  const clock = new ManualClock(new Date('2026-03-01T09:00:00Z'));
  app.register<IClock>(TOKENS.Clock, { useValue: clock });

  const reverie = createReverie({ dataPath, container: app, scope: 'user:ana', logger: 'silent' })
    .withMemory()
    .withDreaming({ enabled: false })
    .build();
  try {
    const memory = reverie.memory!;
    await memory.save({ content: 'Ana is allergic to peanuts', category: 'people/ana' });
    await memory.save({ content: 'Draft the sprint notes', category: 'scratch' });
    clock.advance(10 * 86_400_000);
    const recalled = (await memory.search({ text: 'peanut allergy' })).map((hit) => hit.entry.content);

    // The host resolves what Reverie built, and the store it registered, as the same instances.
    const sameMemory = reverie.container!.resolve(TOKENS.ReverieMemory) === reverie.memory;
    const sameStore = reverie.container!.resolve(TOKENS.LongTermMemory) === reverie.memory!.store;

    const report = await reverie.dreams.run();
    const scratch = report.passes.find((pass) => pass.name === 'scratch-expiry');
    return {
      recalled,
      sameMemory,
      sameStore,
      storeIsTheHosts: reverie.memory!.store instanceof AuditedMemoryStore,
      scratchExpiry: scratch && { status: scratch.status, phase: scratch.phase },
      remaining: (await memory.list()).map((entry) => entry.content),
      audit: [...app.resolve(AuditTrail).lines],
    };
  } finally {
    await reverie.close();
  }
}
