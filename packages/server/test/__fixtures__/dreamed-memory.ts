import { createReverie } from 'reverie';
import type { StartServerOptions } from '../../src/index';
import { type Served, serveFresh } from '../served-reverie';
import { mergingModel, type ScriptedMerge } from './merging-model';

/** A small, realistic memory: an assistant's notes about one user. */
export const NOTES = [
  { content: 'Deploys go out on Tuesday afternoons', category: 'work/deploys', tags: ['deploys'] },
  { content: 'The team never deploys on Fridays', category: 'work/deploys', tags: ['deploys'] },
  { content: 'Production runs on Postgres 15 in eu-west-1', category: 'work/infrastructure', tags: ['postgres'] },
  { content: 'The user prefers metric units', category: 'preferences/units', tags: ['units'] },
  { content: 'The user measures distances in kilometres', category: 'preferences/units', tags: ['units'] },
  { content: 'Answers should be short, with code first', category: 'preferences/style', tags: ['style'] },
  { content: "The user's daughter Mira starts school in September", category: 'people/family', tags: ['family'] },
  { content: 'The user is allergic to peanuts', category: 'health', tags: ['allergy'] },
];

/** What the scripted model merges: the two deploy rules into one entry. */
export const DEPLOY_MERGE: ScriptedMerge = {
  sources: ['Deploys go out on Tuesday afternoons', 'The team never deploys on Fridays'],
  content: 'Deploys go out on Tuesday afternoons. Also: the team never deploys on Fridays',
};

/**
 * A served Reverie whose memory holds NOTES and one finished dream run (a scripted
 * MockLanguageModelV3) that merged the two deploy rules into one entry.
 */
export async function serveDreamedMemory(options: Omit<StartServerOptions, 'reverie'> = {}): Promise<Served & { runId: string }> {
  const served = await serveFresh(options, (dataPath) =>
    createReverie({ dataPath, model: mergingModel([DEPLOY_MERGE]) })
      .withMemory()
      .withDreaming({ enabled: false })
      .build(),
  );
  for (const note of NOTES) await served.reverie.memory!.save(note);
  const report = await served.reverie.dreams.run({ trigger: 'schedule' });
  return { ...served, runId: report.runId };
}
