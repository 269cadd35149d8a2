import { checkReverie } from 'reverie';
import { z } from 'zod';
import { defineOperation } from './operation';

export const doctor = defineOperation({
  name: 'check_reverie',
  title: 'Check the served Reverie',
  description:
    'Checks what the server works with, changing nothing: each store (readable, how much it holds), files set aside as unreadable, runs left running or dead-lettered, the dream lock, the last runs, and which passes a cycle would run.',
  access: 'read',
  input: z.object({}),
  http: { method: 'GET', path: '/api/doctor' },
  async run(_input, { reverie }) {
    return { dataPath: reverie.dataPath, scope: reverie.scope ?? null, ...(await checkReverie(reverie)) };
  },
});
