// Child process of the crash and concurrency tests: one Reverie over a data directory, doing
// one thing and printing one JSON line per result on stdout.
//
//   dream-child.ts dream <dataPath> [delayMs]   runs `reverie.dreams.run()`; the scripted model
//                                                merges near-duplicates by their "topic-N" mark
//                                                (and two report skills), after delayMs.
//   dream-child.ts apply <dataPath> <planId>     runs `reverie.dreams.apply(planId)`: a saved plan, no model call.
//   dream-child.ts agent <dataPath>              until its stdin closes, saves/updates/deletes and
//                                                searches memory through the API; prints every write.
//
// The fault-point environment variables (REVERIE_FAULT_KILL_AT, REVERIE_FAULT_TRACE) are
// read by the engine itself.
import { setTimeout as sleep } from 'node:timers/promises';
import { createReverie, type MemoryEntry } from 'reverie';
import { dreamModel } from './dream-model';

const [mode, dataPath, arg] = process.argv.slice(2);
if (!mode || !dataPath) {
  console.error('usage: dream-child <dream|agent> <dataPath> [arg]');
  process.exit(2);
}
const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

// `importanceDecay.write`: the decay pass stores decayed values, so a crash test's run writes
// (and has to recover) a memory save per aging entry, as hosts that opt into it see.
const dreaming = { importanceDecay: { write: true } };

if (mode === 'dream') {
  const reverie = createReverie({ dataPath, model: dreamModel({ delayMs: Number(arg ?? 0) }) })
    .withMemory()
    .withSkills()
    .withConversationLog()
    .withDreaming(dreaming)
    .build();
  out({ started: true });
  const report = await reverie.dreams.run({ trigger: 'test' });
  out({ report });
  await reverie.close();
} else if (mode === 'apply') {
  const reverie = createReverie({ dataPath, model: dreamModel() })
    .withMemory()
    .withSkills()
    .withConversationLog()
    .withDreaming(dreaming)
    .build();
  out({ started: true });
  const report = await reverie.dreams.apply(arg!);
  out({ report });
  await reverie.close();
} else if (mode === 'agent') {
  const reverie = createReverie({ dataPath }).withMemory().build();
  const memory = reverie.memory!;
  let open = true;
  process.stdin.on('data', () => undefined);
  process.stdin.on('end', () => (open = false));
  let round = 0;
  out({ started: true });
  while (open) {
    round += 1;
    // Re-save the contested near-duplicates with new content, so the dream's plan goes stale.
    for (const entry of await memory.list({ category: 'contested' })) {
      const saved: MemoryEntry = await memory.save({ ...entry, content: `${entry.content.replace(/ \(rev \d+\)$/, '')} (rev ${round})` });
      out({ write: 'update', id: saved.id, content: saved.content, updatedAt: saved.updatedAt });
    }
    const created = await memory.save({
      content: `Agent note number ${round}: the user mentioned topic-agent ${round}.`,
      category: 'agent',
    });
    out({ write: 'save', id: created.id, content: created.content, updatedAt: created.updatedAt });
    if (round % 3 === 0) {
      const oldest = (await memory.list({ category: 'agent' }))[0];
      if (oldest && (await memory.delete(oldest.id))) out({ write: 'delete', id: oldest.id });
    }
    const hits = await memory.search({ text: 'cat named Miso', maxResults: 5 });
    out({ search: hits.length });
    await sleep(5);
  }
  await reverie.close();
  out({ done: round });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
