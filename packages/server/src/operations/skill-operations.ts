import { ReverieError } from '@reverie/core';
import { z } from 'zod';
import { defineOperation } from './operation';
import { skillsOf } from './services';
import { asUntrustedData, UNTRUSTED_DATA_NOTE } from './untrusted-data';

export const skillsList = defineOperation({
  name: 'list_skills',
  title: 'List skills',
  description: `The skills of the library sorted by name, with their summaries (read one with get_skill). ${UNTRUSTED_DATA_NOTE}`,
  access: 'read',
  input: z.object({ prefix: z.string().optional().describe('Only skills named this or below it ("mcp" lists "mcp/email"…)') }),
  http: { method: 'GET', path: '/api/skills' },
  async run({ prefix }, { reverie }) {
    const skills = await skillsOf(reverie).list(prefix === undefined ? {} : { prefix });
    return skills.map(({ name, summary, seeAlso, updatedAt, lastUsedAt }) =>
      asUntrustedData({ name, summary, seeAlso, updatedAt, lastUsedAt }),
    );
  },
});

export const skillsGet = defineOperation({
  name: 'get_skill',
  title: 'Read a skill',
  description: `One skill with its full content; NOT_FOUND when there is none by that name. ${UNTRUSTED_DATA_NOTE}`,
  access: 'read',
  input: z.object({
    name: z.string().min(1).describe('The skill name, e.g. "mcp/email" (in a URL path, encode the slashes: mcp%2Femail)'),
  }),
  http: { method: 'GET', path: '/api/skills/{name}' },
  async run({ name }, { reverie }) {
    const skill = await skillsOf(reverie).get(name);
    if (skill === undefined)
      throw new ReverieError('NOT_FOUND', `No skill is named ${name}: list them with list_skills.`, { details: { name } });
    return asUntrustedData(skill);
  },
});
