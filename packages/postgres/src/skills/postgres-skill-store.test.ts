import { describeSkillStoreConformance } from '@reverie/core/testing';
import { describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../test/each-database';
import { usePgliteClient } from '../../test/test-databases';
import { PostgresSkillStore } from './postgres-skill-store';

describeOnEachDatabase((database, client) => {
  describeSkillStoreConformance(
    `PostgresSkillStore on ${database}`,
    ({ clock, scope }) => new PostgresSkillStore({ client: client(), scope, clock }),
    { persistent: true },
  );
});

describe('PostgresSkillStore', () => {
  const client = usePgliteClient();

  it('keeps names that differ only in case apart (the file store refuses the second)', async () => {
    const store = new PostgresSkillStore({ client: client(), scope: 'user:case' });
    await store.save({ name: 'git/rebase', summary: 'Rebase onto main', content: '' });
    await store.save({ name: 'Git/Rebase', summary: 'Another skill', content: '' });
    expect((await store.list()).map((skill) => skill.name)).toEqual(['Git/Rebase', 'git/rebase']);
    expect((await store.get('git/rebase'))?.summary).toBe('Rebase onto main');
    await store.close();
  });

  it('refuses a bad scope with INVALID_SCOPE and a missing client with INVALID_OPTIONS', () => {
    expect(() => new PostgresSkillStore({ client: client(), scope: '../other' })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCOPE' }),
    );
    expect(() => new PostgresSkillStore({ scope: 'user:1' } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
