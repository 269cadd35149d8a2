import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container as rootContainer, inject, injectable, Lifecycle } from 'tsyringe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type IClock, type ILogger, InMemoryLongTermMemory, ManualClock, ReverieError } from '@reverie/core';
import { createReverie, type DreamPass, type Reverie, type ReverieScopes, TOKENS } from 'reverie';
import { TOKEN_ROLES } from '../src/di/token-roles';

let root: string;
const opened: Array<Reverie | ReverieScopes> = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-container-'));
});
afterEach(async () => {
  for (const instance of opened.splice(0)) await instance.close();
  rmSync(root, { recursive: true, force: true });
});
const keep = <T extends Reverie | ReverieScopes>(instance: T): T => {
  opened.push(instance);
  return instance;
};

function recordingLogger(): ILogger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

const noopPass = (name: string): DreamPass => ({
  name,
  phase: 'rem',
  requires: [],
  model: 'none',
  plan: async () => ({ operations: [], itemsProcessed: 0, notes: [`${name} ran`], refusals: [] }),
});

function refusal(build: () => unknown): ReverieError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ReverieError);
    return error as ReverieError;
  }
  throw new Error('expected a ReverieError');
}

describe('.use(token, implementation)', () => {
  it('honours the clock and the logger', async () => {
    const clock = new ManualClock(new Date('2025-01-02T03:04:05Z'));
    const logger = recordingLogger();
    const reverie = keep(
      createReverie({ dataPath: root }).use(TOKENS.Clock, clock).use(TOKENS.Logger, logger).withMemory().withDreaming().build(),
    );
    const entry = await reverie.memory!.save({ content: 'The user lives in Porto' });
    expect(entry.createdAt).toBe('2025-01-02T03:04:05.000Z');
    await reverie.dreams.start();
    expect(logger.lines.some((line) => line.startsWith('info Dream scheduler started'))).toBe(true);
  });

  it('refuses a service given twice, as an option and through .use()', () => {
    const clock = new ManualClock(new Date());
    const error = refusal(() => createReverie({ dataPath: root, clock }).use(TOKENS.Clock, clock).build());
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toContain('keep one');
  });

  it('honours or refuses every token, saying what to do for the ones Reverie builds', () => {
    for (const [token, { name, role }] of TOKEN_ROLES) {
      if (role.kind !== 'built') continue;
      const error = refusal(() => createReverie({ dataPath: root }).use(token, {}));
      expect(error.code).toBe('INVALID_OPTIONS');
      expect(error.message).toContain(`TOKENS.${name}`);
      expect(error.message).toContain(role.advice);
    }
    expect(refusal(() => createReverie({ dataPath: root }).use(Symbol('mine'), {})).message).toContain('a token from TOKENS');
    // Every token of TOKENS has a role, and the roles name no token that is not one.
    expect(new Set(TOKEN_ROLES.keys())).toEqual(new Set(Object.values(TOKENS)));
  });

  it('adds a dream pass through TOKENS.DreamPass, as often as it is given', () => {
    const reverie = keep(
      createReverie({ dataPath: root, logger: 'silent' })
        .withMemory()
        .use(TOKENS.DreamPass, noopPass('first-note'))
        .use(TOKENS.DreamPass, noopPass('second-note'))
        .withDreaming({ enabled: false })
        .build(),
    );
    expect(
      reverie.dreams
        .plan()
        .filter((pass) => pass.host)
        .map((pass) => pass.name),
    ).toEqual(['first-note', 'second-note']);
  });

  it('in buildScopes(), honours what may serve every scope and refuses a store', async () => {
    const clock = new ManualClock(new Date('2025-01-02T03:04:05Z'));
    const scopes = keep(createReverie({ dataPath: root, logger: 'silent' }).use(TOKENS.Clock, clock).withMemory().buildScopes());
    expect((await scopes.get('user:1').memory!.save({ content: 'Likes tea' })).createdAt).toBe('2025-01-02T03:04:05.000Z');
    const error = refusal(() =>
      createReverie({ dataPath: root }).use(TOKENS.LongTermMemory, new InMemoryLongTermMemory()).withMemory().buildScopes(),
    );
    expect(JSON.stringify(error.details)).toContain('use(TOKENS.LongTermMemory)');
  });
});

@injectable()
class CountingStore extends InMemoryLongTermMemory {
  static made = 0;
  constructor(
    @inject(TOKENS.Clock) clock: IClock,
    @inject(TOKENS.Scope) readonly scope: string,
  ) {
    super({ clock });
    CountingStore.made += 1;
  }
}

describe('createReverie({ container })', () => {
  it('uses what the host registered under a token, built in a child container with Reverie clock, and registers what Reverie built', async () => {
    const app = rootContainer.createChildContainer();
    const clock = new ManualClock(new Date('2024-06-01T00:00:00Z'));
    const logger = recordingLogger();
    app.register(TOKENS.Clock, { useValue: clock });
    app.register(TOKENS.Logger, { useValue: logger });
    app.register(TOKENS.LongTermMemory, { useClass: CountingStore });
    app.register(TOKENS.DreamPass, { useValue: noopPass('host-note') });
    const reverie = keep(createReverie({ dataPath: root, container: app, scope: 'user:7' }).withMemory().withDreaming().build());

    const store = reverie.memory!.store;
    expect(store).toBeInstanceOf(CountingStore);
    expect((store as CountingStore).scope).toBe('user:7');
    expect((await reverie.memory!.save({ content: 'Prefers aisle seats' })).createdAt).toBe('2024-06-01T00:00:00.000Z');
    await reverie.dreams.start();
    expect(logger.lines.some((line) => line.startsWith('info Dream scheduler started'))).toBe(true);

    const child = reverie.container!;
    expect(child).not.toBe(app);
    expect(child.resolve(TOKENS.LongTermMemory)).toBe(store);
    expect(child.resolve(TOKENS.ReverieMemory)).toBe(reverie.memory);
    expect(child.resolve(TOKENS.Dreams)).toBe(reverie.dreams);
    expect(child.resolve(TOKENS.AgentTools)).toBe(reverie.tools);
    expect(child.resolve(TOKENS.Reverie)).toBe(reverie);
    // Reverie works in the child: nothing it built lands in the host's container.
    expect(app.isRegistered(TOKENS.ReverieMemory)).toBe(false);
    expect(reverie.dreams.plan().find((pass) => pass.name === 'host-note')).toMatchObject({ host: true, status: 'would-run' });
    expect((await reverie.dreams.run()).passes.find((pass) => pass.name === 'host-note')).toMatchObject({ status: 'ok' });
  });

  it('lets an option or .use() win over the container, and leaves the defaults when the container has nothing', async () => {
    const app = rootContainer.createChildContainer();
    app.register(TOKENS.Clock, { useValue: new ManualClock(new Date('2000-01-01T00:00:00Z')) });
    app.register(TOKENS.LongTermMemory, { useClass: CountingStore });
    const mine = new InMemoryLongTermMemory();
    const reverie = keep(
      createReverie({ dataPath: root, container: app, clock: new ManualClock(new Date('2030-01-01T00:00:00Z')), logger: 'silent' })
        .use(TOKENS.LongTermMemory, mine)
        .withMemory()
        .withWorkingMemory()
        .withSkills()
        .build(),
    );
    expect(reverie.memory!.store).toBe(mine);
    // The option's clock, not the container's: the file stores Reverie made read it.
    expect((await reverie.workingMemory!.set('session/s1/note', 'v')).storedAt).toBe('2030-01-01T00:00:00.000Z');
    expect(reverie.skills?.constructor.name).toBe('FileSkillStore');
  });

  it('refuses a container that registers what Reverie builds, and a value that is not a container', () => {
    const app = rootContainer.createChildContainer();
    app.register(TOKENS.ReverieMemory, { useValue: {} });
    const error = refusal(() => createReverie({ dataPath: root, container: app }).withMemory().build());
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toContain('TOKENS.ReverieMemory');
    expect(refusal(() => createReverie({ dataPath: root, container: {} as never }).build()).message).toContain(
      'tsyringe DependencyContainer',
    );
  });

  it('gives each scope of buildScopes() a child container of its own, and refuses a store instance the scopes would share', async () => {
    const app = rootContainer.createChildContainer();
    app.register(TOKENS.LongTermMemory, { useClass: CountingStore }, { lifecycle: Lifecycle.ContainerScoped });
    const scopes = keep(createReverie({ dataPath: root, container: app, logger: 'silent' }).withMemory().buildScopes());
    const one = scopes.get('user:1');
    const two = scopes.get('user:2');
    expect((one.memory!.store as CountingStore).scope).toBe('user:1');
    expect((two.memory!.store as CountingStore).scope).toBe('user:2');
    expect(one.container).not.toBe(two.container);
    await one.memory!.save({ content: 'Only in scope one' });
    expect(await two.memory!.list()).toEqual([]);

    const shared = rootContainer.createChildContainer();
    shared.register(TOKENS.LongTermMemory, { useValue: new InMemoryLongTermMemory() });
    const sharing = keep(
      createReverie({ dataPath: join(root, 'shared'), container: shared, logger: 'silent' })
        .withMemory()
        .buildScopes(),
    );
    sharing.get('user:1');
    const error = refusal(() => sharing.get('user:2'));
    expect(error.message).toContain('same TOKENS.LongTermMemory instance');
  });
});
