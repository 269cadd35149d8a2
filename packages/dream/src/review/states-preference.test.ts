import { describe, expect, it } from 'vitest';
import { statesPreference } from './states-preference';

describe('statesPreference', () => {
  it.each([
    'The user prefers answers in metric units',
    'Hates long answers',
    'Always answer in British English',
    'Never book red-eye flights for the user',
    "Doesn't like being called by her surname",
    'Please use pnpm, not npm',
    'Tim loves fantasy books',
  ])('a preference or standing instruction: %j', (text) => expect(statesPreference(text)).toBe(true));

  it.each([
    'John signed with the Minnesota Wolves as a shooting guard',
    'Deploys go out on Mondays at 3pm',
    'Alice moved to Berlin in March 2024',
  ])('a fact: %j', (text) => expect(statesPreference(text)).toBe(false));
});
